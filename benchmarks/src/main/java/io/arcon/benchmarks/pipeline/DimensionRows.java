package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.IndexedEvents;
import java.io.Serializable;
import org.apache.beam.sdk.values.KV;

/**
 * A stream of lookup rows that change per window, for the side-input join benchmark: in every
 * event-time window {@code w} of {@code windowMillis} (from 0 to {@code windows - 1}) one row per
 * key {@code k} of {@code 0..keys-1}, {@code (k, weightOf(k, w))}, at event time {@code w *
 * windowMillis + k * windowMillis / keys}. Rows come in event-time order, so each reader's
 * watermark is its last row's time (and the end of time after its last row): a window's rows are
 * complete once the watermark passes its end, as a table republished per period would be.
 *
 * <p>It splits into interleaved parts ({@link IndexedEvents}), so every split advances through
 * event time at the same pace.
 */
final class DimensionRows extends IndexedEvents {

  /** What the rows look like. */
  record Shape(long windows, long keys, long windowMillis) implements Serializable {
    Shape {
      if (windows <= 0 || keys <= 0) {
        throw new IllegalArgumentException(
            "windows and keys must be positive, got " + windows + " and " + keys);
      }
      if (windowMillis < keys) {
        throw new IllegalArgumentException(
            "a window of "
                + windowMillis
                + " ms cannot hold "
                + keys
                + " rows a millisecond or more apart: use a longer window or fewer keys");
      }
    }

    long rows() {
      return windows * keys;
    }

    long keyOf(long row) {
      return row % keys;
    }

    long timestampOf(long row) {
      return (row / keys) * windowMillis + (row % keys) * windowMillis / keys;
    }
  }

  /** The value of key {@code key}'s row in window {@code window}: different in every window. */
  static long weightOf(long key, long window) {
    return key * 1_000 + window + 1;
  }

  private final Shape shape;

  private DimensionRows(Shape shape, int part, int parts) {
    super(part, parts);
    this.shape = shape;
  }

  static DimensionRows of(Shape shape) {
    return new DimensionRows(shape, 0, 1);
  }

  @Override
  protected DimensionRows part(int part, int parts) {
    return new DimensionRows(shape, part, parts);
  }

  @Override
  protected long count() {
    return shape.rows();
  }

  @Override
  protected KV<Long, Long> element(long row) {
    long key = shape.keyOf(row);
    return KV.of(key, weightOf(key, row / shape.keys()));
  }

  @Override
  protected long timestampMillis(long row) {
    return shape.timestampOf(row);
  }

  /** In order: no later row of any split is before this one's time. */
  @Override
  protected long watermarkAfter(long row) {
    return shape.timestampOf(row);
  }
}
