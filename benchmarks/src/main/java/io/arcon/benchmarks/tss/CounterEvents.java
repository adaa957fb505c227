package io.arcon.benchmarks.tss;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
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
 * An unbounded-style stream of {@code (key, 1)} events for the TSS export benchmark: element {@code
 * i} of {@code 0..elements-1} has key {@code (i * 31 + 7) % keys} and event time {@code base + i ms
 * - disorder(i)}, where {@code disorder(i)} is a deterministic pseudo-random lag below {@code
 * maxDisorderMillis}, so the stream is out of order within a bounded window. Each reader's
 * watermark trails its last element's position by {@code watermarkLagMillis} (at least the
 * disorder, so no element is late) and reaches the end of time after the last element.
 *
 * <p>With a gate (a latch), a reader that has read all its elements holds its watermark at {@code
 * holdWatermarkMillis} and reads nothing until the latch reaches zero: the pipeline stays running
 * with its whole state behind the watermark, which is what the extraction measurement needs. Gates
 * live in a static registry (the source is serialized, but runs in the benchmark's JVM).
 *
 * <p>The source splits into interleaved parts ({@code i % splits == part}), so every split's event
 * time advances at the same pace and the instances' watermarks move together.
 */
public final class CounterEvents extends UnboundedSource<KV<Long, Long>, CounterEvents.Position> {

  /** Open gates are count-down latches at zero; a held reader polls its gate. */
  private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

  /** What the stream looks like. */
  public record Shape(
      long elements,
      int keys,
      long baseMillis,
      int maxDisorderMillis,
      int watermarkLagMillis,
      long holdWatermarkMillis)
      implements Serializable {

    public Shape {
      if (elements <= 0) {
        throw new IllegalArgumentException("--elements must be positive, got " + elements);
      }
      if (keys <= 0) {
        throw new IllegalArgumentException("--keys must be positive, got " + keys);
      }
      if (maxDisorderMillis < 1) {
        throw new IllegalArgumentException(
            "--maxDisorderMillis must be at least 1 (1 = in order), got " + maxDisorderMillis);
      }
      if (watermarkLagMillis < maxDisorderMillis) {
        throw new IllegalArgumentException(
            "--watermarkLagMillis ("
                + watermarkLagMillis
                + ") must be at least --maxDisorderMillis ("
                + maxDisorderMillis
                + "), or elements would be late");
      }
    }

    /** The key of element {@code i}. */
    public long keyOf(long i) {
      return Math.floorMod(i * 31 + 7, (long) keys);
    }

    /** The event time of element {@code i}. */
    public long timestampOf(long i) {
      return baseMillis + i - disorderOf(i);
    }

    /** A deterministic lag in {@code [0, maxDisorderMillis)} (SplitMix64's finalizer). */
    long disorderOf(long i) {
      long z = i + 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      z = z ^ (z >>> 31);
      return Math.floorMod(z, (long) maxDisorderMillis);
    }

    /** One past the latest event time of the stream. */
    public long endMillis() {
      return baseMillis + elements;
    }
  }

  private final Shape shape;
  private final int part;
  private final int parts;
  private final String gateId; // null: no gate

  private CounterEvents(Shape shape, int part, int parts, String gateId) {
    this.shape = shape;
    this.part = part;
    this.parts = parts;
    this.gateId = gateId;
  }

  /** The whole stream, ending at once after its last element. */
  public static CounterEvents of(Shape shape) {
    return new CounterEvents(shape, 0, 1, null);
  }

  /** The whole stream, held at {@code shape.holdWatermarkMillis()} until {@code gate} opens. */
  public static CounterEvents gated(Shape shape, String gateId, CountDownLatch gate) {
    if (shape.holdWatermarkMillis() < shape.endMillis()) {
      throw new IllegalArgumentException(
          "the hold watermark must be at or after the stream's last event time + 1 ms ("
              + shape.endMillis()
              + "), got "
              + shape.holdWatermarkMillis());
    }
    GATES.put(gateId, gate);
    return new CounterEvents(shape, 0, 1, gateId);
  }

  /** Forgets a gate once its run is over. */
  public static void removeGate(String gateId) {
    GATES.remove(gateId);
  }

  @Override
  public List<CounterEvents> split(int desiredNumSplits, PipelineOptions options) {
    int n = (int) Math.max(1, Math.min(desiredNumSplits, shape.elements()));
    List<CounterEvents> splits = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      splits.add(new CounterEvents(shape, p, n, gateId));
    }
    return splits;
  }

  @Override
  public UnboundedReader<KV<Long, Long>> createReader(
      PipelineOptions options, Position checkpointMark) {
    return new Reader(checkpointMark == null ? part : checkpointMark.next());
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return SerializableCoder.of(Position.class);
  }

  @Override
  public Coder<KV<Long, Long>> getOutputCoder() {
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
      if (next < shape.elements()) {
        current = next;
        next += parts;
        // Every later element of this split is at least (position + 1 - maxDisorder): not late.
        watermark = new Instant(shape.baseMillis() + current - shape.watermarkLagMillis());
        return true;
      }
      current = -1;
      CountDownLatch gate = gateId == null ? null : GATES.get(gateId);
      if (gate != null && gate.getCount() > 0) {
        watermark = new Instant(shape.holdWatermarkMillis());
        return false;
      }
      watermark = BoundedWindow.TIMESTAMP_MAX_VALUE;
      return false;
    }

    @Override
    public KV<Long, Long> getCurrent() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return KV.of(shape.keyOf(current), 1L);
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      return new Instant(shape.timestampOf(current));
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
      return CounterEvents.this;
    }

    @Override
    public void close() throws IOException {}
  }
}
