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
 * An unbounded source of {@code (user, count)} events that are computed from their index, paced
 * against the wall clock, and ending after {@code maxEvents} events (its watermark then jumps to
 * the end of time, which lets a streaming pipeline finish).
 *
 * <p>Shard {@code s} of {@code n} emits events {@code s, s + n, s + 2n, ...}, so splitting keeps
 * every event exactly once and a checkpoint is just the next index. A subclass says what event
 * {@code i} is, when it happened, what the watermark is before it, and when a reader may emit it.
 */
public abstract class IndexedEventSource<SourceT extends IndexedEventSource<SourceT>>
    extends UnboundedSource<KV<String, Long>, IndexedEventSource.Checkpoint> {

  private static final long serialVersionUID = 1L;

  /** {@code maxEvents} of a source that never ends. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  private final long maxEvents;
  private final int shard;
  private final int shards;

  protected IndexedEventSource(long maxEvents, int shard, int shards) {
    if (maxEvents < 0) {
      throw new IllegalArgumentException("maxEvents must not be negative, got " + maxEvents);
    }
    this.maxEvents = maxEvents;
    this.shard = shard;
    this.shards = shards;
  }

  /** Shard {@code shard} of {@code shards} of this source. */
  protected abstract SourceT shard(int shard, int shards);

  /** Event {@code index}. */
  protected abstract KV<String, Long> event(long index);

  /** The event time of event {@code index}. */
  protected abstract Instant eventTime(long index);

  /** The watermark of a reader whose next event is {@code index}. */
  protected abstract Instant watermarkBefore(long index);

  /** The pacing of a reader that starts now with event {@code firstIndex}. */
  protected abstract Pace startPace(long firstIndex);

  /** When a reader may emit its next event. */
  @FunctionalInterface
  protected interface Pace {
    /**
     * @param index the event to emit next
     * @param emitted events this reader emitted since it started
     */
    boolean allows(long index, long emitted);
  }

  /** Position of a reader: the index of the next event it will emit. */
  public static final class Checkpoint implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    private final long nextIndex;

    Checkpoint(long nextIndex) {
      this.nextIndex = nextIndex;
    }

    public long nextIndex() {
      return nextIndex;
    }

    @Override
    public void finalizeCheckpoint() {
      // Events are recomputed from their index, so there is nothing to acknowledge upstream.
    }
  }

  /** Events before the source ends (over all shards), or {@link #UNBOUNDED}. */
  protected final long maxEvents() {
    return maxEvents;
  }

  /** How many shards the source this one came from was split into; 1 before a split. */
  protected final int shards() {
    return shards;
  }

  @Override
  @SuppressWarnings("unchecked") // SourceT is this class's own type
  public final List<SourceT> split(int desiredNumSplits, PipelineOptions options) {
    if (shards != 1) {
      return List.of((SourceT) this);
    }
    int count = (int) Math.max(1, Math.min(desiredNumSplits, Math.max(1, maxEvents)));
    List<SourceT> splits = new ArrayList<>(count);
    for (int s = 0; s < count; s++) {
      splits.add(shard(s, count));
    }
    return splits;
  }

  @Override
  public final UnboundedReader<KV<String, Long>> createReader(
      PipelineOptions options, @Nullable Checkpoint checkpoint) {
    return new Reader(checkpoint == null ? shard : checkpoint.nextIndex());
  }

  @Override
  public final Coder<Checkpoint> getCheckpointMarkCoder() {
    return SerializableCoder.of(Checkpoint.class);
  }

  @Override
  public final Coder<KV<String, Long>> getOutputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
  }

  private final class Reader extends UnboundedReader<KV<String, Long>> {
    private long nextIndex;
    private long currentIndex = -1;
    private long emitted;
    private Pace pace;

    Reader(long nextIndex) {
      this.nextIndex = nextIndex;
    }

    @Override
    public boolean start() {
      pace = startPace(nextIndex);
      return advance();
    }

    @Override
    public boolean advance() {
      if (nextIndex >= maxEvents || !pace.allows(nextIndex, emitted)) {
        return false;
      }
      currentIndex = nextIndex;
      nextIndex += shards;
      emitted++;
      return true;
    }

    @Override
    public KV<String, Long> getCurrent() {
      checkCurrent();
      return event(currentIndex);
    }

    @Override
    public Instant getCurrentTimestamp() {
      checkCurrent();
      return eventTime(currentIndex);
    }

    private void checkCurrent() {
      if (currentIndex < 0) {
        throw new NoSuchElementException("advance() has not returned true yet");
      }
    }

    @Override
    public Instant getWatermark() {
      if (nextIndex >= maxEvents) {
        return BoundedWindow.TIMESTAMP_MAX_VALUE;
      }
      return watermarkBefore(nextIndex);
    }

    @Override
    public Checkpoint getCheckpointMark() {
      return new Checkpoint(nextIndex);
    }

    @Override
    public IndexedEventSource<SourceT> getCurrentSource() {
      return IndexedEventSource.this;
    }

    @Override
    public void close() {
      // Nothing is held open: events are computed, not read from anywhere.
    }
  }
}
