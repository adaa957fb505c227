package io.arcon.examples.tss;

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
 * An unbounded source of {@link SimulatedEvents}, paced by a simulated clock that runs {@code
 * eventSecondsPerSecond} times faster than the wall clock: event {@code i} is emitted once the
 * clock reaches {@link SimulatedEvents#emittedAt}. The clock starts when a reader starts (at the
 * emission time of its first event) and stands still while no reader runs.
 *
 * <p>Shard {@code s} of {@code n} emits events {@code s, s + n, s + 2n, ...}, so splitting keeps
 * every event exactly once and a checkpoint is just the next index. After {@code maxEvents} events
 * the watermark jumps to the end of time, which lets a streaming pipeline (a test) finish.
 */
public final class SimulatedEventSource
    extends UnboundedSource<KV<String, Long>, SimulatedEventSource.Checkpoint> {

  private static final long serialVersionUID = 1L;

  /** {@code maxEvents} of a source that never ends. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  private final SimulatedEvents events;
  private final long maxEvents;
  private final double eventSecondsPerSecond;
  private final int shard;
  private final int shards;

  /**
   * @param maxEvents events before the source ends, or {@link #UNBOUNDED}
   * @param eventSecondsPerSecond speed of the simulated clock; 0 emits as fast as possible
   */
  public SimulatedEventSource(
      SimulatedEvents events, long maxEvents, double eventSecondsPerSecond) {
    this(events, maxEvents, eventSecondsPerSecond, 0, 1);
  }

  private SimulatedEventSource(
      SimulatedEvents events, long maxEvents, double eventSecondsPerSecond, int shard, int shards) {
    if (maxEvents < 0) {
      throw new IllegalArgumentException("maxEvents must not be negative, got " + maxEvents);
    }
    if (!(eventSecondsPerSecond >= 0) || Double.isInfinite(eventSecondsPerSecond)) {
      throw new IllegalArgumentException(
          "the simulated clock's speed must be a finite number of event seconds per second >= 0"
              + " (0 = as fast as possible), got "
              + eventSecondsPerSecond);
    }
    this.events = events;
    this.maxEvents = maxEvents;
    this.eventSecondsPerSecond = eventSecondsPerSecond;
    this.shard = shard;
    this.shards = shards;
  }

  /** Position of a reader: the index of the next event it will emit. */
  public static final class Checkpoint implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    private final long nextIndex;

    Checkpoint(long nextIndex) {
      this.nextIndex = nextIndex;
    }

    long nextIndex() {
      return nextIndex;
    }

    @Override
    public void finalizeCheckpoint() {
      // Events are recomputed from their index, so there is nothing to acknowledge upstream.
    }
  }

  @Override
  public List<SimulatedEventSource> split(int desiredNumSplits, PipelineOptions options) {
    if (shards != 1) {
      return List.of(this);
    }
    int count = (int) Math.max(1, Math.min(desiredNumSplits, Math.max(1, maxEvents)));
    List<SimulatedEventSource> splits = new ArrayList<>(count);
    for (int s = 0; s < count; s++) {
      splits.add(new SimulatedEventSource(events, maxEvents, eventSecondsPerSecond, s, count));
    }
    return splits;
  }

  @Override
  public UnboundedReader<KV<String, Long>> createReader(
      PipelineOptions options, @Nullable Checkpoint checkpoint) {
    return new Reader(this, checkpoint == null ? shard : checkpoint.nextIndex());
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
    private final SimulatedEventSource source;
    private long nextIndex;
    private long currentIndex = -1;
    private long clockStartNanos;
    private long clockStartEventMillis;

    Reader(SimulatedEventSource source, long nextIndex) {
      this.source = source;
      this.nextIndex = nextIndex;
    }

    @Override
    public boolean start() {
      clockStartNanos = System.nanoTime();
      clockStartEventMillis = source.events.emittedAt(nextIndex).getMillis();
      return advance();
    }

    @Override
    public boolean advance() {
      if (nextIndex >= source.maxEvents || !due(nextIndex)) {
        return false;
      }
      currentIndex = nextIndex;
      nextIndex += source.shards;
      return true;
    }

    /** Whether the simulated clock has reached the emission of event {@code i}. */
    private boolean due(long i) {
      if (source.eventSecondsPerSecond == 0) {
        return true;
      }
      double wallMillis = (System.nanoTime() - clockStartNanos) / 1e6;
      double simulatedMillis = wallMillis * source.eventSecondsPerSecond;
      return source.events.emittedAt(i).getMillis() - clockStartEventMillis <= simulatedMillis;
    }

    @Override
    public KV<String, Long> getCurrent() {
      checkCurrent();
      return source.events.event(currentIndex);
    }

    @Override
    public Instant getCurrentTimestamp() {
      checkCurrent();
      return source.events.eventTime(currentIndex);
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
      return source.events.watermarkBefore(nextIndex);
    }

    @Override
    public Checkpoint getCheckpointMark() {
      return new Checkpoint(nextIndex);
    }

    @Override
    public SimulatedEventSource getCurrentSource() {
      return source;
    }

    @Override
    public void close() {
      // Nothing is held open: events are computed, not read from anywhere.
    }
  }
}
