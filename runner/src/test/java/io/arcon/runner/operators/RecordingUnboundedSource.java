package io.arcon.runner.operators;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * An unbounded source for snapshot tests: {@code splits} splits, split s yields {@link #value}(s,
 * k) at timestamp k for k = 0..recordsPerSplit-1, then its watermark reaches the end of time. Its
 * checkpoint mark is the index of the next record, and finalizing a mark is recorded under the
 * source's {@code run} name ({@link #finalized}). With {@code redeliver > 0} a reader resumed from
 * a mark starts that many records before it, as a source with at-least-once redelivery (Pub/Sub)
 * does, and the source requires deduping by record id.
 */
final class RecordingUnboundedSource extends UnboundedSource<Long, RecordingUnboundedSource.Mark> {
  private static final Map<String, List<String>> FINALIZED = new ConcurrentHashMap<>();

  private final String run;
  private final int splits;
  private final int split;
  private final long recordsPerSplit;
  private final int redeliver;

  RecordingUnboundedSource(String run, int splits, long recordsPerSplit, int redeliver) {
    this(run, splits, -1, recordsPerSplit, redeliver);
  }

  private RecordingUnboundedSource(
      String run, int splits, int split, long recordsPerSplit, int redeliver) {
    this.run = run;
    this.splits = splits;
    this.split = split;
    this.recordsPerSplit = recordsPerSplit;
    this.redeliver = redeliver;
    FINALIZED.putIfAbsent(run, Collections.synchronizedList(new ArrayList<>()));
  }

  static long value(int split, long k) {
    return split * 1_000_000L + k;
  }

  /** Every element of every split, as the oracle of a complete read. */
  List<Long> allValues() {
    List<Long> all = new ArrayList<>();
    for (int s = 0; s < splits; s++) {
      for (long k = 0; k < recordsPerSplit; k++) {
        all.add(value(s, k));
      }
    }
    return all;
  }

  /** The marks finalized for {@code run}, as "split:next", in the order they were finalized. */
  static List<String> finalized(String run) {
    synchronized (FINALIZED.get(run)) {
      return new ArrayList<>(FINALIZED.get(run));
    }
  }

  @Override
  public List<RecordingUnboundedSource> split(int desiredNumSplits, PipelineOptions options) {
    List<RecordingUnboundedSource> result = new ArrayList<>();
    for (int s = 0; s < splits; s++) {
      result.add(new RecordingUnboundedSource(run, splits, s, recordsPerSplit, redeliver));
    }
    return result;
  }

  @Override
  public UnboundedReader<Long> createReader(PipelineOptions options, Mark mark) {
    if (split < 0) {
      throw new IllegalStateException("read the splits, not the whole source");
    }
    return new Reader(mark == null ? 0 : Math.max(0, mark.next - redeliver));
  }

  @Override
  public Coder<Mark> getCheckpointMarkCoder() {
    return SerializableCoder.of(Mark.class);
  }

  @Override
  public boolean requiresDeduping() {
    return redeliver > 0;
  }

  @Override
  public Coder<Long> getOutputCoder() {
    return VarLongCoder.of();
  }

  /** Records before {@code next} of split {@code split} are acknowledged by this mark. */
  static final class Mark implements UnboundedSource.CheckpointMark, Serializable {
    final String run;
    final int split;
    final long next;

    Mark(String run, int split, long next) {
      this.run = run;
      this.split = split;
      this.next = next;
    }

    @Override
    public void finalizeCheckpoint() {
      FINALIZED.get(run).add(split + ":" + next);
    }
  }

  private final class Reader extends UnboundedReader<Long> {
    private long next;
    private long current = -1;

    Reader(long next) {
      this.next = next;
    }

    @Override
    public boolean start() {
      return advance();
    }

    @Override
    public boolean advance() {
      if (next >= recordsPerSplit) {
        return false;
      }
      current = next++;
      return true;
    }

    @Override
    public Long getCurrent() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return value(split, current);
    }

    @Override
    public Instant getCurrentTimestamp() {
      return new Instant(current);
    }

    @Override
    public byte[] getCurrentRecordId() {
      return ByteBuffer.allocate(Long.BYTES).putLong(getCurrent()).array();
    }

    @Override
    public Instant getWatermark() {
      return next >= recordsPerSplit ? BoundedWindow.TIMESTAMP_MAX_VALUE : new Instant(next);
    }

    @Override
    public CheckpointMark getCheckpointMark() {
      return new Mark(run, split, next);
    }

    @Override
    public UnboundedSource<Long, ?> getCurrentSource() {
      return RecordingUnboundedSource.this;
    }

    @Override
    public void close() {}
  }
}
