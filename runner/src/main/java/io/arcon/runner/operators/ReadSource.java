package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.progress.SourceProgress;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.Source;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * A primitive Read as a source operator: the Beam source's code (splitting, creating readers,
 * reading, checkpointing) runs in the step's metrics scope, since sources may report metrics while
 * doing any of it.
 */
abstract class ReadSource implements SourceOperator {
  final PipelineOptions options;
  private final OperatorMetrics metrics;
  private final boolean bounded;
  OperatorContext context;

  /** What this instance read, for the job's progress; set when it opens, updated once per poll. */
  SourceProgress progress;

  private final ReadProgress reads;
  private final String step;

  /**
   * @param reads the job's read counters, null when nobody observes this read
   * @param step the read transform's full name, under which the instances report
   */
  ReadSource(
      PipelineOptions options,
      OperatorMetrics metrics,
      boolean bounded,
      ReadProgress reads,
      String step) {
    this.options = options;
    this.metrics = metrics.forInstance();
    this.bounded = bounded;
    this.reads = reads;
    this.step = step;
  }

  @Override
  public final void open(OperatorContext ctx) throws Exception {
    this.context = ctx;
    progress =
        reads == null
            ? SourceProgress.unobserved(bounded)
            : reads.register(step, ctx.instanceIndex(), bounded);
    metrics.scoped(() -> openReaders(ctx));
  }

  @Override
  public final PollResult poll(int maxElements) throws Exception {
    return metrics.scoped(() -> read(maxElements));
  }

  @Override
  public final void snapshotState(OperatorSnapshot snapshot) throws Exception {
    metrics.scoped(() -> writePosition(snapshot));
  }

  /**
   * Splits the source and takes this instance's share of the splits, or, when {@link
   * OperatorContext#restore()} is set, takes its share of the positions the checkpoint holds.
   */
  abstract void openReaders(OperatorContext ctx) throws Exception;

  /** Emits up to {@code maxElements} elements (see {@link SourceOperator#poll}). */
  abstract PollResult read(int maxElements) throws Exception;

  /** Writes this instance's read position into the snapshot's directory. */
  abstract void writePosition(OperatorSnapshot snapshot) throws Exception;

  /** Runs source code outside {@link #open}, {@link #poll} and snapshots in the metrics scope. */
  final void inMetricsScope(OperatorMetrics.Action work) throws Exception {
    metrics.scoped(work);
  }

  /** Emits the reader's current record, in the global window at its timestamp. */
  final void emitCurrent(Source.Reader<?> reader) {
    context
        .output()
        .emit(
            0,
            WindowedValues.timestampedValueInGlobalWindow(
                reader.getCurrent(), reader.getCurrentTimestamp()));
  }

  /**
   * The snapshot directories an instance resumes from: see {@link RestoredInstances#toRead}.
   *
   * @param instance this instance's index
   */
  static List<Path> directoriesToRestore(OperatorRestore restore, int instance) {
    List<Path> directories = new ArrayList<>();
    for (int previous : RestoredInstances.toRead(restore, instance)) {
      directories.add(restore.directoryOf(previous));
    }
    return directories;
  }

  /**
   * This instance's part of the positions read from {@link #directoriesToRestore}: all of them with
   * an unchanged parallelism, else position j goes to instance {@code j % parallelism}. The order
   * of the list is deterministic (previous instance, then position within it), so the instances
   * together take every position exactly once.
   */
  static <P> List<P> shareOf(List<P> positions, OperatorRestore restore, OperatorContext ctx) {
    if (restore.sameParallelism()) {
      return positions;
    }
    List<P> share = new ArrayList<>();
    for (int j = ctx.instanceIndex(); j < positions.size(); j += ctx.parallelism()) {
      share.add(positions.get(j));
    }
    return share;
  }
}
