package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runtime.operator.OperatorContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Primitive bounded Read: the source is split once at start into about one split per instance (more
 * when the source splits finer); instance i reads splits i, i+p, i+2p, ... one after the other. The
 * watermark stays at its minimum until every split is read.
 */
public final class BoundedReadSource<T> extends ReadSource {
  private final BoundedSource<T> source;
  private final List<BoundedSource<T>> mySplits = new ArrayList<>();
  private int nextSplit;
  private BoundedSource.BoundedReader<T> reader;
  private boolean readerStarted;
  private boolean done;

  public BoundedReadSource(
      BoundedSource<T> source, PipelineOptions options, OperatorMetrics metrics) {
    super(options, metrics);
    this.source = source;
  }

  @Override
  void openReaders(OperatorContext ctx) throws Exception {
    List<? extends BoundedSource<T>> splits = split(source, options, ctx.parallelism());
    for (int i = ctx.instanceIndex(); i < splits.size(); i += ctx.parallelism()) {
      mySplits.add(splits.get(i));
    }
  }

  static <T> List<? extends BoundedSource<T>> split(
      BoundedSource<T> source, PipelineOptions options, int parallelism) throws Exception {
    if (parallelism == 1) {
      return List.of(source);
    }
    long size = source.getEstimatedSizeBytes(options);
    long desired = Math.max(1, size / parallelism);
    List<? extends BoundedSource<T>> splits = source.split(desired, options);
    return splits.isEmpty() ? List.of(source) : splits;
  }

  @Override
  PollResult read(int maxElements) throws Exception {
    int emitted = 0;
    while (emitted < maxElements) {
      if (reader == null) {
        if (nextSplit >= mySplits.size()) {
          done = true;
          return PollResult.DONE;
        }
        reader = mySplits.get(nextSplit++).createReader(options);
        readerStarted = false;
      }
      boolean available = readerStarted ? reader.advance() : reader.start();
      readerStarted = true;
      if (!available) {
        reader.close();
        reader = null;
        continue;
      }
      emitCurrent(reader);
      emitted++;
    }
    return PollResult.MORE;
  }

  @Override
  public long currentWatermark() {
    return done ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  @Override
  public void close() throws Exception {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
