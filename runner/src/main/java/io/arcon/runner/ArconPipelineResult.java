package io.arcon.runner;

import io.arcon.runtime.job.JobMonitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.util.UserCodeException;
import org.joda.time.Duration;

/** The handle of a pipeline running on ArconRunner. */
public class ArconPipelineResult implements PipelineResult {
  private final JobMonitor monitor;
  private final MetricsContainerStepMap metrics;
  private final Path stateRoot;

  ArconPipelineResult(JobMonitor monitor, MetricsContainerStepMap metrics, Path stateRoot) {
    this.monitor = monitor;
    this.metrics = metrics;
    this.stateRoot = stateRoot;
    monitor.outcome().whenComplete((outcome, error) -> deleteStateRoot());
  }

  @Override
  public State getState() {
    if (!monitor.outcome().isDone()) {
      return State.RUNNING;
    }
    return switch (monitor.outcome().join()) {
      case DONE -> State.DONE;
      case FAILED -> State.FAILED;
      case CANCELLED -> State.CANCELLED;
    };
  }

  @Override
  public State cancel() throws IOException {
    monitor.cancel();
    return getState();
  }

  @Override
  public State waitUntilFinish(Duration duration) {
    try {
      if (duration == null || duration.getMillis() <= 0) {
        monitor.outcome().get();
      } else {
        monitor.outcome().get(duration.getMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (TimeoutException e) {
      return getState();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return getState();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Job monitor failed", e.getCause());
    }
    State state = getState();
    if (state == State.FAILED) {
      throw new Pipeline.PipelineExecutionException(userCause(monitor.failure()));
    }
    return state;
  }

  @Override
  public State waitUntilFinish() {
    return waitUntilFinish(Duration.ZERO);
  }

  /** The user's exception behind runners-core's wrapping. */
  static Throwable userCause(Throwable t) {
    Throwable current = t;
    while (current instanceof UserCodeException && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  @Override
  public MetricResults metrics() {
    MetricsContainerStepMap committed =
        getState() == State.DONE ? metrics : new MetricsContainerStepMap();
    return MetricsContainerStepMap.asMetricResults(metrics, committed);
  }

  private void deleteStateRoot() {
    try (Stream<Path> files = Files.walk(stateRoot)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // Temporary files; the OS cleans the temp directory eventually.
    }
  }
}
