package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import org.apache.beam.sdk.io.Source;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * A primitive Read as a source operator: the Beam source's code (splitting, creating readers,
 * reading) runs in the step's metrics scope, since sources may report metrics while doing any of
 * it.
 */
abstract class ReadSource implements SourceOperator {
  final PipelineOptions options;
  private final OperatorMetrics metrics;
  OperatorContext context;

  ReadSource(PipelineOptions options, OperatorMetrics metrics) {
    this.options = options;
    this.metrics = metrics;
  }

  @Override
  public final void open(OperatorContext ctx) throws Exception {
    this.context = ctx;
    metrics.scoped(() -> openReaders(ctx));
  }

  @Override
  public final PollResult poll(int maxElements) throws Exception {
    return metrics.scoped(() -> read(maxElements));
  }

  /** Splits the source and takes this instance's share of the splits. */
  abstract void openReaders(OperatorContext ctx) throws Exception;

  /** Emits up to {@code maxElements} elements (see {@link SourceOperator#poll}). */
  abstract PollResult read(int maxElements) throws Exception;

  /** Emits the reader's current record, in the global window at its timestamp. */
  final void emitCurrent(Source.Reader<?> reader) {
    context
        .output()
        .emit(
            0,
            WindowedValues.timestampedValueInGlobalWindow(
                reader.getCurrent(), reader.getCurrentTimestamp()));
  }
}
