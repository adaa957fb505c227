package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runtime.operator.OperatorContext;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;

/**
 * Primitive unbounded Read, optionally bounded by {@link Limits} (Beam's {@code
 * BoundedReadFromUnboundedSource}, read here directly so all splits read concurrently instead of
 * one blocking DoFn call per split): the source is split into one split per instance (or as many as
 * it gives); each instance round-robins over its readers. The instance's watermark is the minimum
 * of its readers' watermarks; a reader whose watermark reaches the end of time is finished.
 * Checkpoint marks are finalized when the bundle that read their records is finished.
 */
public final class UnboundedReadSource<T> extends ReadSource {
  private static final int DEDUP_CAPACITY = 100_000;

  /**
   * Where reading stops (Beam's {@code BoundedReadFromUnboundedSource}): after {@code
   * maxNumRecords} records over all splits, or {@code maxReadTimeMillis} after a split's reader
   * started; {@link #NONE} reads forever.
   */
  public record Limits(long maxNumRecords, long maxReadTimeMillis) {
    public static final Limits NONE = new Limits(Long.MAX_VALUE, Long.MAX_VALUE);

    /** The records split {@code split} of {@code splits} may read: an even share of the total. */
    long recordsForSplit(int split, int splits) {
      if (maxNumRecords == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      long share = maxNumRecords / splits;
      return split < maxNumRecords % splits ? share + 1 : share;
    }
  }

  private final UnboundedSource<T, ?> source;
  private final Limits limits;
  private final List<UnboundedSource.UnboundedReader<T>> readers = new ArrayList<>();
  private final List<Boolean> started = new ArrayList<>();
  private final List<Boolean> finished = new ArrayList<>();
  private final List<Long> recordsLeft = new ArrayList<>();
  private final List<Long> readUntilMillis = new ArrayList<>();
  private long watermark = Long.MIN_VALUE;
  private Map<ByteBuffer, Boolean> seenIds;

  public UnboundedReadSource(
      UnboundedSource<T, ?> source, PipelineOptions options, OperatorMetrics metrics) {
    this(source, options, metrics, Limits.NONE);
  }

  public UnboundedReadSource(
      UnboundedSource<T, ?> source,
      PipelineOptions options,
      OperatorMetrics metrics,
      Limits limits) {
    super(options, metrics);
    this.source = source;
    this.limits = limits;
  }

  @Override
  void openReaders(OperatorContext ctx) throws Exception {
    List<? extends UnboundedSource<T, ?>> splits = source.split(ctx.parallelism(), options);
    if (splits.isEmpty()) {
      splits = List.of(source);
    }
    for (int i = ctx.instanceIndex(); i < splits.size(); i += ctx.parallelism()) {
      readers.add(splits.get(i).createReader(options, null));
      started.add(false);
      long records = limits.recordsForSplit(i, splits.size());
      finished.add(records == 0);
      recordsLeft.add(records);
      readUntilMillis.add(Long.MAX_VALUE);
    }
    if (source.requiresDeduping()) {
      seenIds =
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Boolean> eldest) {
              return size() > DEDUP_CAPACITY;
            }
          };
    }
  }

  @Override
  PollResult read(int maxElements) throws Exception {
    int emitted = 0;
    int perReader = Math.max(1, maxElements / Math.max(1, readers.size()));
    for (int r = 0; r < readers.size(); r++) {
      if (finished.get(r)) {
        continue;
      }
      UnboundedSource.UnboundedReader<T> reader = readers.get(r);
      int n = 0;
      while (n < perReader && recordsLeft.get(r) > 0) {
        boolean available;
        if (!started.get(r)) {
          started.set(r, true);
          if (limits.maxReadTimeMillis() != Long.MAX_VALUE) {
            readUntilMillis.set(r, System.currentTimeMillis() + limits.maxReadTimeMillis());
          }
          available = reader.start();
        } else {
          available = reader.advance();
        }
        if (!available) {
          break;
        }
        n++;
        if (recordsLeft.get(r) != Long.MAX_VALUE) {
          recordsLeft.set(r, recordsLeft.get(r) - 1);
        }
        if (seenIds != null) {
          ByteBuffer id = ByteBuffer.wrap(reader.getCurrentRecordId());
          if (seenIds.put(id, Boolean.TRUE) != null) {
            continue;
          }
        }
        emitCurrent(reader);
      }
      emitted += n;
      if (!reader.getWatermark().isBefore(BoundedWindow.TIMESTAMP_MAX_VALUE)
          || recordsLeft.get(r) == 0
          || System.currentTimeMillis() >= readUntilMillis.get(r)) {
        finished.set(r, true);
      }
    }
    updateWatermark();
    if (watermark == Long.MAX_VALUE) {
      return PollResult.DONE;
    }
    return emitted > 0 ? PollResult.MORE : PollResult.IDLE;
  }

  private void updateWatermark() {
    long min = Long.MAX_VALUE;
    for (int r = 0; r < readers.size(); r++) {
      if (finished.get(r)) {
        continue;
      }
      min =
          started.get(r)
              ? Math.min(min, Watermarks.fromInstant(readers.get(r).getWatermark()))
              : Long.MIN_VALUE;
    }
    watermark = Math.max(watermark, min);
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  @Override
  public void finishBundle() throws Exception {
    for (int r = 0; r < readers.size(); r++) {
      if (started.get(r)) {
        readers.get(r).getCheckpointMark().finalizeCheckpoint();
      }
    }
  }

  @Override
  public void close() throws Exception {
    for (UnboundedSource.UnboundedReader<T> reader : readers) {
      reader.close();
    }
    readers.clear();
  }
}
