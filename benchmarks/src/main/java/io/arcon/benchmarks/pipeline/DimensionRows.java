package io.arcon.benchmarks.pipeline;

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
 * A stream of lookup rows that change per window, for the side-input join benchmark: in every
 * event-time window {@code w} of {@code windowMillis} (from 0 to {@code windows - 1}) one row per
 * key {@code k} of {@code 0..keys-1}, {@code (k, weightOf(k, w))}, at event time {@code w *
 * windowMillis + k * windowMillis / keys}. Rows come in event-time order, so each reader's
 * watermark is its last row's time (and the end of time after its last row): a window's rows are
 * complete once the watermark passes its end, as a table republished per period would be.
 *
 * <p>The source splits into interleaved parts (row {@code j % splits == part}), so every split
 * advances through event time at the same pace.
 */
final class DimensionRows extends UnboundedSource<KV<Long, Long>, DimensionRows.Position> {

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
  private final int part;
  private final int parts;

  private DimensionRows(Shape shape, int part, int parts) {
    this.shape = shape;
    this.part = part;
    this.parts = parts;
  }

  static DimensionRows of(Shape shape) {
    return new DimensionRows(shape, 0, 1);
  }

  @Override
  public List<DimensionRows> split(int desiredNumSplits, PipelineOptions options) {
    int n = (int) Math.max(1, Math.min(desiredNumSplits, shape.rows()));
    List<DimensionRows> splits = new ArrayList<>(n);
    for (int p = 0; p < n; p++) {
      splits.add(new DimensionRows(shape, p, n));
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

  /** Where a reader resumes: the next row it emits. */
  record Position(long next) implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }

  private final class Reader extends UnboundedReader<KV<Long, Long>> {
    private long next;
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
      if (next < shape.rows()) {
        current = next;
        next += parts;
        // In order: no later row of any split is before this one's time.
        watermark = new Instant(shape.timestampOf(current));
        return true;
      }
      current = -1;
      watermark = BoundedWindow.TIMESTAMP_MAX_VALUE;
      return false;
    }

    @Override
    public KV<Long, Long> getCurrent() {
      if (current < 0) {
        throw new NoSuchElementException();
      }
      long key = shape.keyOf(current);
      return KV.of(key, weightOf(key, current / shape.keys()));
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
      return DimensionRows.this;
    }

    @Override
    public void close() throws IOException {}
  }
}
