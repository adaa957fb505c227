package io.arcon.benchmarks.tss;

import io.arcon.benchmarks.IndexedEvents;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
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
 * <p>It splits into interleaved parts ({@link IndexedEvents}), so every split's event time advances
 * at the same pace and the instances' watermarks move together.
 */
public final class CounterEvents extends IndexedEvents {

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
  private final String gateId; // null: no gate

  private CounterEvents(Shape shape, int part, int parts, String gateId) {
    super(part, parts);
    this.shape = shape;
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
  protected CounterEvents part(int part, int parts) {
    return new CounterEvents(shape, part, parts, gateId);
  }

  @Override
  protected long count() {
    return shape.elements();
  }

  @Override
  protected KV<Long, Long> element(long i) {
    return KV.of(shape.keyOf(i), 1L);
  }

  @Override
  protected long timestampMillis(long i) {
    return shape.timestampOf(i);
  }

  /** Every later element of a split is at least (position + 1 - maxDisorder): not late. */
  @Override
  protected long watermarkAfter(long i) {
    return shape.baseMillis() + i - shape.watermarkLagMillis();
  }

  @Override
  protected Instant watermarkAtEnd() {
    CountDownLatch gate = gateId == null ? null : GATES.get(gateId);
    if (gate != null && gate.getCount() > 0) {
      return new Instant(shape.holdWatermarkMillis());
    }
    return BoundedWindow.TIMESTAMP_MAX_VALUE;
  }
}
