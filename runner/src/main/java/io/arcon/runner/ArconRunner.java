package io.arcon.runner;

import io.arcon.runner.checkpointing.CheckpointSettings;
import io.arcon.runner.checkpointing.EpochMetrics;
import io.arcon.runner.harness.HarnessLogLevels;
import io.arcon.runner.metrics.MetricsWorkScope;
import io.arcon.runner.options.WatermarkDrift;
import io.arcon.runner.progress.ProgressReporter;
import io.arcon.runner.state.StateBackendTuning;
import io.arcon.runner.state.TemporaryStateRoot;
import io.arcon.runner.translation.PipelineTranslator;
import io.arcon.runner.translation.Translation;
import io.arcon.runner.tss.TssLink;
import io.arcon.runner.tss.TssSettings;
import io.arcon.runner.webui.ObservedJob;
import io.arcon.runner.webui.WebUi;
import io.arcon.runner.webui.WebUiSettings;
import io.arcon.runtime.checkpoint.CheckpointStore;
import io.arcon.runtime.checkpoint.CompletedCheckpoint;
import io.arcon.runtime.checkpoint.RestorePlan;
import io.arcon.runtime.epoch.EpochCoordinator;
import io.arcon.runtime.epoch.EpochListener;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.job.JobAttempts;
import io.arcon.runtime.job.JobClock;
import io.arcon.runtime.job.JobMonitor;
import io.arcon.runtime.job.NodeThreads;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.observe.JobStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.core.metrics.MetricsPusher;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.metrics.MetricsOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsValidator;
import org.apache.beam.sdk.options.SdkHarnessOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Beam pipelines on the Arcon runtime: translates the pipeline into fused operator chains and
 * executes them as Pekko actors in this JVM. Select it with {@code --runner=ArconRunner}.
 */
public class ArconRunner extends PipelineRunner<ArconPipelineResult> {
  private static final Logger LOG = LoggerFactory.getLogger(ArconRunner.class);

  /** Elements per batch message between nodes. */
  static final int BATCH_SIZE = 512;

  /** Unacknowledged batches per (edge, receiver) channel. */
  static final int CREDITS_PER_CHANNEL = 8;

  private final ArconPipelineOptions options;

  /** {@code --stateBackendOptions}, checked when the runner is made (a bad one is refused then). */
  private final Map<String, String> stateBackendOptions;

  protected ArconRunner(ArconPipelineOptions options) {
    this.options = options;
    this.stateBackendOptions = StateBackendTuning.parse(options.getStateBackendOptions());
  }

  public static ArconRunner fromOptions(PipelineOptions options) {
    ArconPipelineOptions arcon =
        PipelineOptionsValidator.validate(ArconPipelineOptions.class, options);
    if (arcon.getParallelism() == null || arcon.getParallelism() < 1) {
      throw new IllegalArgumentException(
          "--parallelism must be a positive number, got " + arcon.getParallelism());
    }
    if (arcon.getMaxBundleSize() < 1) {
      throw new IllegalArgumentException(
          "--maxBundleSize must be a positive number, got " + arcon.getMaxBundleSize());
    }
    if (arcon.getMaxBundleTimeMills() < 1) {
      throw new IllegalArgumentException(
          "--maxBundleTimeMills must be a positive number, got " + arcon.getMaxBundleTimeMills());
    }
    nodeThreads(arcon); // refuses a bad --nodeThreads before the pipeline is translated
    return new ArconRunner(arcon);
  }

  private static NodeThreads nodeThreads(ArconPipelineOptions options) {
    return new NodeThreads(
        !Boolean.FALSE.equals(options.getPinNodes()),
        options.getNodeThreads() == null ? 0 : options.getNodeThreads());
  }

  public ArconPipelineOptions getPipelineOptions() {
    return options;
  }

  @Override
  public ArconPipelineResult run(Pipeline pipeline) {
    MetricsEnvironment.setMetricsSupported(true);
    MetricsContainerStepMap metrics = new MetricsContainerStepMap();
    // Refuses bad options and transforms it cannot run before any node starts.
    TssSettings tssSettings = TssSettings.of(options, true);
    CheckpointSettings checkpoints = CheckpointSettings.of(options, options.getStateDir());
    WebUiSettings webUi = WebUiSettings.of(options, true);
    // Checks --progress; the job's reads report to its counters.
    ProgressReporter progress = ProgressReporter.prepare(options);
    TssLink tss = tssSettings.enabled() ? new TssLink(tssSettings) : null;
    Translation translation =
        PipelineTranslator.translate(pipeline, options, metrics, tss, progress.reads());
    if (!tssSettings.enabled() && !tssSettings.exports().isEmpty()) {
      // Only a TSS link sorts and exports a transform; without one --tssExport would do nothing.
      throw new IllegalArgumentException(
          "--tssExport="
              + options.getTssExport()
              + " has no effect with TSS off (--tss=off; TestArconRunner's default): --tssExport"
              + " makes a transform's state exported exactly to TSS (its input sorted by event"
              + " time), and with TSS off nothing is exported or sorted. Use --tss=on to export"
              + " it, or drop --tssExport.");
    }
    if (tss != null && !tss.start()) {
      LOG.debug("{} has no user state: it does not register with TSS", options.getJobName());
      tss = null;
    }
    return execute(translation, metrics, tss, checkpoints, webUi, progress);
  }

  /**
   * Runs a job that was translated elsewhere (the portable Job Service translates portable
   * pipelines into the same job graphs), with this runner's options: checkpoints, restarts, web UI
   * and metrics apply as for a Java pipeline; TSS does not (portable user state is not exported).
   */
  public ArconPipelineResult runTranslated(
      Translation translation, MetricsContainerStepMap metrics) {
    MetricsEnvironment.setMetricsSupported(true);
    CheckpointSettings checkpoints = CheckpointSettings.of(options, options.getStateDir());
    WebUiSettings webUi = WebUiSettings.of(options, true);
    ProgressReporter progress = ProgressReporter.prepare(options);
    return execute(translation, metrics, null, checkpoints, webUi, progress);
  }

  private ArconPipelineResult execute(
      Translation translation,
      MetricsContainerStepMap metrics,
      TssLink tss,
      CheckpointSettings checkpoints,
      WebUiSettings webUi,
      ProgressReporter progress) {
    JobGraph graph = translation.graph();
    LOG.debug("Job graph of {}:\n{}", options.getJobName(), graph.describe());
    JobStats stats = new JobStats(options.getJobName(), graph);

    CompletedCheckpoint restoreFrom =
        checkpoints.restoreFrom() == null
            ? null
            : CompletedCheckpoint.load(checkpoints.restoreFrom(), options.getJobName());
    // Refuses a checkpoint of another pipeline (a stateful transform missing) before any node
    // starts.
    RestorePlan initialRestore = restoreFrom == null ? null : RestorePlan.of(restoreFrom, graph);

    if (!stateBackendOptions.isEmpty()) {
      LOG.info("State backend options of {}: {}", options.getJobName(), stateBackendOptions);
    }
    TemporaryStateRoot temporaryState =
        options.getStateDir() == null || options.getStateDir().isBlank()
            ? TemporaryStateRoot.create()
            : null;
    Path stateRoot = temporaryState != null ? temporaryState.path() : createStateRoot();
    RuntimeConfig config =
        new RuntimeConfig(
            options.getMaxBundleSize(),
            options.getMaxBundleTimeMills(),
            BATCH_SIZE,
            CREDITS_PER_CHANNEL,
            stateRoot,
            stateBackendOptions,
            translation.manualClock() != null ? translation.manualClock() : JobClock.SYSTEM,
            translation.manualClock() != null,
            translation.activity(),
            // Under a manual (TestStream) clock every node sees the same time anyway.
            translation.manualClock() == null && translation.usesSynchronizedTime(),
            checkpoints.enabled(),
            initialRestore,
            options.getEpochFaultInjector(),
            MetricsWorkScope.INSTANCE,
            WatermarkDrift.parseMillis(
                options.getMaxWatermarkDrift(), RuntimeConfig.DEFAULT_MAX_WATERMARK_DRIFT_MILLIS),
            nodeThreads(options));
    // This JVM is the job's SDK harness: its user code logs at the job's harness log levels.
    HarnessLogLevels.Lease logLevels = HarnessLogLevels.apply(options.as(SdkHarnessOptions.class));
    CheckpointStore store = null;
    JobMonitor monitor;
    try {
      store =
          checkpoints.enabled()
              ? CheckpointStore.open(
                  checkpoints.checkpointDir(),
                  options.getJobName(),
                  checkpoints.retainedCheckpoints())
              : null;
      if (restoreFrom != null) {
        // Only now: a checkpoint directory another running job holds is refused above.
        LOG.info(
            "{} resumes from epoch {} at {}",
            options.getJobName(),
            restoreFrom.epoch(),
            restoreFrom.directory());
      }
      monitor =
          startAttempts(
              graph, config, checkpoints, store, restoreFrom, initialRestore, metrics, stats);
    } catch (RuntimeException | Error e) {
      logLevels.release();
      if (store != null) {
        store.close();
      }
      if (tss != null) {
        tss.close();
      }
      if (temporaryState != null) {
        temporaryState.delete(); // no node ever started: nothing in it is needed
      }
      throw e;
    }
    progress.start(monitor);
    if (tss != null) {
      TssLink link = tss;
      monitor.outcome().whenComplete((outcome, failure) -> link.close());
    }
    CheckpointStore checkpointStore = store;
    ObservedJob observed =
        new ObservedJob(
            options.getJobName(), stats, metrics, monitor, tss != null ? tss.settings() : null);
    ArconPipelineResult result =
        new ArconPipelineResult(
            observed,
            progress.reads(),
            temporaryState,
            initialRestore != null,
            () -> {
              progress.finish(); // the final line is out before waitUntilFinish returns
              logLevels.release();
              if (checkpointStore != null) {
                // A finished job has nothing to resume; a failed or cancelled one keeps them.
                if (monitor.outcome().getNow(null) == JobMonitor.Outcome.DONE) {
                  checkpointStore.closeAndDiscard();
                } else {
                  checkpointStore.close();
                }
              }
            });
    if (webUi.enabled()) {
      try {
        WebUi.register(webUi, observed);
      } catch (RuntimeException e) {
        // The job already runs: it must not outlive a run() that failed.
        monitor.cancel();
        throw e;
      }
    }
    // Pushes metrics to --metricsSink every --metricsPushPeriod when a sink is configured.
    new MetricsPusher(metrics, options.as(MetricsOptions.class), result).start();
    return result;
  }

  /**
   * Runs the job with restarts ({@code --numberOfExecutionRetries}): every attempt gets its own
   * epoch coordinator, and a restart resumes from the newest epoch this run completed, else from
   * where the run started ({@code --restoreFrom}, or from scratch).
   */
  private JobMonitor startAttempts(
      JobGraph graph,
      RuntimeConfig config,
      CheckpointSettings checkpoints,
      CheckpointStore store,
      CompletedCheckpoint restoreFrom,
      RestorePlan initialRestore,
      MetricsContainerStepMap metrics,
      JobStats stats) {
    String jobName = options.getJobName();
    long epochsBefore =
        Math.max(
            store == null ? 0 : store.lastEpoch(), restoreFrom == null ? 0 : restoreFrom.epoch());
    EpochListener epochListener =
        EpochListener.all(new EpochMetrics(metrics), stats.epochListener());
    return JobAttempts.start(
        jobName,
        graph,
        config,
        attempt -> {
          if (store == null) {
            return null;
          }
          long last = Math.max(epochsBefore, store.lastEpoch());
          return new EpochCoordinator(
              jobName,
              graph,
              store,
              last,
              checkpoints.intervalMillis(),
              checkpoints.timeoutMillis(),
              epochListener);
        },
        attempt -> {
          if (attempt > 0 && store != null) {
            Optional<CompletedCheckpoint> latest = store.latest();
            if (latest.isPresent() && latest.get().epoch() > epochsBefore) {
              LOG.info("{} restarts from epoch {}", jobName, latest.get().epoch());
              return RestorePlan.of(latest.get(), graph);
            }
          }
          if (attempt > 0) {
            // No epoch of this run committed (or checkpointing is off): say where it starts over.
            if (initialRestore != null) {
              LOG.info(
                  "{} restarts from epoch {} of --restoreFrom (no later epoch committed)",
                  jobName,
                  initialRestore.epoch());
            } else {
              LOG.info(
                  "{} restarts from the beginning ({})",
                  jobName,
                  store == null ? "checkpointing is off" : "no epoch committed yet");
            }
          }
          return initialRestore;
        },
        checkpoints.retries(),
        checkpoints.retryDelayMillis(),
        stats);
  }

  /**
   * A fresh directory for this run's persistent state under {@code --stateDir}: a new subdirectory,
   * so a run never opens another run's leftover engine files.
   */
  private Path createStateRoot() {
    String stateDir = options.getStateDir();
    Path parent = Path.of(stateDir);
    try {
      Files.createDirectories(parent);
      String prefix = options.getJobName().replaceAll("[^A-Za-z0-9._-]", "_") + "-";
      Path root = Files.createTempDirectory(parent, prefix);
      LOG.info("State of {} is kept in {}", options.getJobName(), root);
      return root;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "--stateDir="
              + stateDir
              + " is not a writable directory ("
              + e
              + "). Give a directory this process can create files in, or omit --stateDir to use"
              + " a temporary one.",
          e);
    }
  }

  @Override
  public String toString() {
    return "ArconRunner";
  }
}
