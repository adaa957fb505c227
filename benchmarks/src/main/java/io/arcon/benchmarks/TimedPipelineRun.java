package io.arcon.benchmarks;

import java.util.function.Consumer;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;

/**
 * One run of a Beam benchmark pipeline, timed from {@code run()} to the end of {@code
 * waitUntilFinish()}, so the runner's start and shutdown count, as a user sees them.
 */
public record TimedPipelineRun(double seconds, PipelineResult result) {

  /** Runs {@code pipeline} to completion; fails unless it ends {@code DONE}. */
  public static TimedPipelineRun of(Pipeline pipeline, String label) {
    return of(pipeline, label, started -> {});
  }

  /**
   * Runs {@code pipeline} to completion, handing its result to {@code whileRunning} on this thread
   * once it has started (that time counts); fails unless the pipeline ends {@code DONE}.
   */
  public static TimedPipelineRun of(
      Pipeline pipeline, String label, Consumer<PipelineResult> whileRunning) {
    long start = System.nanoTime();
    PipelineResult result = pipeline.run();
    whileRunning.accept(result);
    PipelineResult.State state = result.waitUntilFinish();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException(label + " ended in state " + state);
    }
    return new TimedPipelineRun(seconds, result);
  }

  /** The attempted value of the run's counter {@code namespace:name}. */
  public long counter(String namespace, String name) {
    return BenchmarkCounters.attempted(result, namespace, name);
  }

  /**
   * Heap still in use once a run is over: a runner that keeps a finished job reachable shows here,
   * and would otherwise slow down every configuration measured after it.
   */
  public static long usedHeapAfterGcMb() {
    System.gc();
    Runtime runtime = Runtime.getRuntime();
    return (runtime.totalMemory() - runtime.freeMemory()) >> 20;
  }
}
