package io.arcon.runtime.job;

import io.arcon.runtime.node.NodeWorkScope;
import java.nio.file.Path;
import java.util.Map;

/**
 * Knobs of one job execution.
 *
 * @param maxBundleSize elements after which a bundle is finished
 * @param maxBundleTimeMillis time after which an open bundle is finished
 * @param batchSize elements per {@code EventBatch} message
 * @param creditsPerChannel unacknowledged batches a sender may have toward one receiver
 * @param stateRoot directory under which operators keep persistent state
 * @param stateBackendOptions tuning of the state engines, for every backend of the job ({@code
 *     io.arcon.state.StateBackendConfig#options()}); empty for the defaults
 * @param clock the job's processing-time clock
 * @param eagerBundles finish the bundle after every message (test streams need outputs visible as
 *     soon as a message is handled, to detect quiescence)
 * @param activity counts in-flight messages, or null when nobody needs it
 * @param trackSynchronizedTime compute synchronized processing time from upstream progress ({@link
 *     SynchronizedTimeTracker}); otherwise it is each node's processing time, which is enough for
 *     jobs without synchronized-time triggers
 * @param checkpointing whether the job takes epoch snapshots (operators then defer side effects to
 *     completed epochs)
 * @param restore the epoch the job resumes from, or null for a fresh start
 * @param faults fault injection for tests of the epoch protocol, null otherwise
 * @param workScope what runs around each piece of a node's work on its thread ({@link
 *     NodeWorkScope#NONE} when the host needs nothing)
 * @param maxWatermarkDriftMillis how far an input channel's watermark may run ahead of the input
 *     watermark of a node that sorts its input by event time before the node holds that channel
 *     back ({@code WatermarkAlignment}); negative: never
 * @param nodeThreads the threads that run the job's nodes
 */
public record RuntimeConfig(
    long maxBundleSize,
    long maxBundleTimeMillis,
    int batchSize,
    int creditsPerChannel,
    Path stateRoot,
    Map<String, String> stateBackendOptions,
    JobClock clock,
    boolean eagerBundles,
    JobActivity activity,
    boolean trackSynchronizedTime,
    boolean checkpointing,
    io.arcon.runtime.epoch.JobRestore restore,
    io.arcon.runtime.epoch.EpochFaultInjector faults,
    NodeWorkScope workScope,
    long maxWatermarkDriftMillis,
    NodeThreads nodeThreads) {

  /** The default of {@code --maxWatermarkDrift}: a second of event time. */
  public static final long DEFAULT_MAX_WATERMARK_DRIFT_MILLIS = 1_000;

  /** A job without epochs. */
  public RuntimeConfig(
      long maxBundleSize,
      long maxBundleTimeMillis,
      int batchSize,
      int creditsPerChannel,
      Path stateRoot,
      JobClock clock,
      boolean eagerBundles,
      JobActivity activity,
      boolean trackSynchronizedTime) {
    this(
        maxBundleSize,
        maxBundleTimeMillis,
        batchSize,
        creditsPerChannel,
        stateRoot,
        Map.of(),
        clock,
        eagerBundles,
        activity,
        trackSynchronizedTime,
        false,
        null,
        null,
        NodeWorkScope.NONE,
        DEFAULT_MAX_WATERMARK_DRIFT_MILLIS,
        NodeThreads.DEFAULT);
  }

  /** The same job resuming from {@code restore} with its state under {@code stateRoot}. */
  public RuntimeConfig resumingFrom(io.arcon.runtime.epoch.JobRestore restore, Path stateRoot) {
    return with(restore, stateRoot, nodeThreads);
  }

  /** The same job on other node threads. */
  public RuntimeConfig withNodeThreads(NodeThreads threads) {
    return with(restore, stateRoot, threads);
  }

  private RuntimeConfig with(
      io.arcon.runtime.epoch.JobRestore restore, Path stateRoot, NodeThreads threads) {
    return new RuntimeConfig(
        maxBundleSize,
        maxBundleTimeMillis,
        batchSize,
        creditsPerChannel,
        stateRoot,
        stateBackendOptions,
        clock,
        eagerBundles,
        activity,
        trackSynchronizedTime,
        checkpointing,
        restore,
        faults,
        workScope,
        maxWatermarkDriftMillis,
        threads);
  }

  public RuntimeConfig {
    stateBackendOptions = Map.copyOf(stateBackendOptions);
    if (workScope == null) {
      workScope = NodeWorkScope.NONE;
    }
    if (nodeThreads == null) {
      nodeThreads = NodeThreads.DEFAULT;
    }
    if (maxBundleSize < 1) {
      throw new IllegalArgumentException("maxBundleSize must be >= 1, got " + maxBundleSize);
    }
    if (maxBundleTimeMillis < 1) {
      throw new IllegalArgumentException(
          "maxBundleTimeMills must be >= 1, got " + maxBundleTimeMillis);
    }
    if (batchSize < 1 || creditsPerChannel < 1) {
      throw new IllegalArgumentException("batchSize and creditsPerChannel must be >= 1");
    }
  }
}
