package io.arcon.examples;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Instant;

/**
 * An unbounded source of {@link ClickSpec} clicks with event timestamps, throttled to a wall-clock
 * rate and ending after {@code maxEvents} clicks (its watermark then jumps to the end of time,
 * which lets a streaming pipeline finish).
 *
 * <p>Shard {@code s} of {@code n} emits clicks {@code s, s + n, s + 2n, ...}, so splitting keeps
 * every click exactly once and a checkpoint is just the next index.
 */
public final class ClickSource extends UnboundedSource<KV<String, Long>, ClickSource.Checkpoint> {

  private static final long serialVersionUID = 1L;

  private final ClickSpec spec;
  private final long maxEvents;
  private final double eventsPerSecond;
  private final int shard;
  private final int shards;

  /**
   * @param eventsPerSecond total rate over all shards; 0 or less means as fast as possible
   */
  public ClickSource(ClickSpec spec, long maxEvents, double eventsPerSecond) {
    this(spec, maxEvents, eventsPerSecond, 0, 1);
  }

  private ClickSource(
      ClickSpec spec, long maxEvents, double eventsPerSecond, int shard, int shards) {
    if (maxEvents < 0) {
      throw new IllegalArgumentException("maxEvents must not be negative, got " + maxEvents);
    }
    this.spec = spec;
    this.maxEvents = maxEvents;
    this.eventsPerSecond = eventsPerSecond;
    this.shard = shard;
    this.shards = shards;
  }

  /** Position of a reader: the index of the next click it will emit. */
  public static final class Checkpoint implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    private final long nextIndex;

    Checkpoint(long nextIndex) {
      this.nextIndex = nextIndex;
    }

    @Override
    public void finalizeCheckpoint() {
      // Clicks are recomputed from their index, so there is nothing to acknowledge upstream.
    }
  }

  @Override
  public List<ClickSource> split(int desiredNumSplits, PipelineOptions options) {
    if (shards != 1) {
      return List.of(this);
    }
    int count = (int) Math.max(1, Math.min(desiredNumSplits, Math.max(1, maxEvents)));
    List<ClickSource> splits = new ArrayList<>(count);
    for (int s = 0; s < count; s++) {
      splits.add(new ClickSource(spec, maxEvents, eventsPerSecond, s, count));
    }
    return splits;
  }

  @Override
  public UnboundedReader<KV<String, Long>> createReader(
      PipelineOptions options, @Nullable Checkpoint checkpoint) {
    return new Reader(this, checkpoint == null ? shard : checkpoint.nextIndex);
  }

  @Override
  public Coder<Checkpoint> getCheckpointMarkCoder() {
    return SerializableCoder.of(Checkpoint.class);
  }

  @Override
  public Coder<KV<String, Long>> getOutputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
  }

  private static final class Reader extends UnboundedReader<KV<String, Long>> {
    private final ClickSource source;
    private long nextIndex;
    private long currentIndex = -1;
    private long emittedSinceStart;
    private long startNanos;

    Reader(ClickSource source, long nextIndex) {
      this.source = source;
      this.nextIndex = nextIndex;
    }

    @Override
    public boolean start() {
      startNanos = System.nanoTime();
      return advance();
    }

    @Override
    public boolean advance() {
      if (nextIndex >= source.maxEvents || !withinRate()) {
        return false;
      }
      currentIndex = nextIndex;
      nextIndex += source.shards;
      emittedSinceStart++;
      return true;
    }

    /** Throttles by comparing clicks emitted with the clicks the rate allows by now. */
    private boolean withinRate() {
      if (source.eventsPerSecond <= 0) {
        return true;
      }
      double perShard = source.eventsPerSecond / source.shards;
      double elapsedSeconds = (System.nanoTime() - startNanos) / 1e9;
      return emittedSinceStart < 1 + elapsedSeconds * perShard;
    }

    @Override
    public KV<String, Long> getCurrent() {
      checkCurrent();
      return source.spec.click(currentIndex);
    }

    @Override
    public Instant getCurrentTimestamp() {
      checkCurrent();
      return source.spec.eventTime(currentIndex);
    }

    private void checkCurrent() {
      if (currentIndex < 0) {
        throw new NoSuchElementException("advance() has not returned true yet");
      }
    }

    @Override
    public Instant getWatermark() {
      if (nextIndex >= source.maxEvents) {
        return BoundedWindow.TIMESTAMP_MAX_VALUE;
      }
      return source.spec.watermarkBefore(nextIndex);
    }

    @Override
    public Checkpoint getCheckpointMark() {
      return new Checkpoint(nextIndex);
    }

    @Override
    public ClickSource getCurrentSource() {
      return source;
    }

    @Override
    public void close() {
      // Nothing is held open: clicks are computed, not read from anywhere.
    }
  }
}
