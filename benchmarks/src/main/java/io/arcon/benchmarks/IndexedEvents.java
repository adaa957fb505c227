package io.arcon.benchmarks;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * An unbounded source of the benchmarks' generated streams: element {@code i} of {@code
 * 0..count()-1} is a function of {@code i} alone (its value, event time and the watermark once it
 * is read), so a run is reproducible and its expected result computable. The source splits into
 * interleaved parts (element {@code i % parts == part}), so every split advances through event time
 * at the same pace; a reader resumes from the index of the next element it emits.
 */
public abstract class IndexedEvents
    extends UnboundedSource<KV<Long, Long>, IndexedEvents.Position> {
  private final int part;
  private final int parts;

  protected IndexedEvents(int part, int parts) {
    this.part = part;
    this.parts = parts;
  }

  /** The number of elements. */
  protected abstract long count();

  /** Element {@code i}. */
  protected abstract KV<Long, Long> element(long i);

  /** The event time of element {@code i}, in epoch millis. */
  protected abstract long timestampMillis(long i);

  /** A split's watermark once it has read element {@code i}: no later element is before it. */
  protected abstract long watermarkAfter(long i);

  /**
   * A split's watermark once it has read all its elements: the end of time, unless the stream is
   * held open (then the reader reads nothing more until this says otherwise).
   */
  protected Instant watermarkAtEnd() {
    return BoundedWindow.TIMESTAMP_MAX_VALUE;
  }

  /** The same stream's part {@code part} of {@code parts}. */
  protected abstract IndexedEvents part(int part, int parts);

  @Override
  public final List<IndexedEvents> split(int desiredNumSplits, PipelineOptions options) {
    int n = (int) Math.max(1, Math.min(desiredNumSplits, count()));
    List<IndexedEvents> splits = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      splits.add(part(p, n));
    }
    return splits;
  }

  @Override
  public final UnboundedReader<KV<Long, Long>> createReader(
      PipelineOptions options, Position checkpointMark) {
    return new Reader(checkpointMark == null ? part : checkpointMark.next());
  }

  @Override
  public final Coder<Position> getCheckpointMarkCoder() {
    return SerializableCoder.of(Position.class);
  }

  @Override
  public final Coder<KV<Long, Long>> getOutputCoder() {
    return KvCoder.of(VarLongCoder.of(), VarLongCoder.of());
  }

  /**
   * Where a reader resumes: the index of the next element it emits (DirectRunner closes and resumes
   * readers all the time; ArconRunner on a restart from an epoch).
   */
  public record Position(long next) implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }

  private final class Reader extends UnboundedReader<KV<Long, Long>> {
    private long next; // the index of the next element this reader emits
    private long current = -1;
    private Instant watermark = BoundedWindow.TIMESTAMP_MIN_VALUE;

    Reader(long next) {
      this.next = next;
    }

    @Override
    public boolean start() {
      return advance();
    }

    @Override
    public boolean advance() {
      if (next < count()) {
        current = next;
        next += parts;
        watermark = new Instant(watermarkAfter(current));
        return true;
      }
      current = -1;
      watermark = watermarkAtEnd();
      return false;
    }

    @Override
    public KV<Long, Long> getCurrent() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return element(current);
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return new Instant(timestampMillis(current));
    }

    @Override
    public Instant getWatermark() {
      return watermark;
    }

    @Override
    public CheckpointMark getCheckpointMark() {
      return new Position(next);
    }

    @Override
    public UnboundedSource<KV<Long, Long>, ?> getCurrentSource() {
      return IndexedEvents.this;
    }

    @Override
    public void close() throws IOException {}
  }
}
