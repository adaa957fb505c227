package io.arcon.runner.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * Reads an {@link EventStream} as an unbounded source, paced at the stream's events per second, and
 * ends after its last slot (watermark at the end of time), so a streaming pipeline over it
 * finishes. The checkpoint mark is the next slot to read.
 *
 * <p>It does not split: with one split the watermark every downstream transform sees is this
 * reader's, delayed by at most the runner's buffering, which is what makes the late and dropped
 * events' fate deterministic (see {@link EventStream}). With several splits it would also depend on
 * how far the splits drift apart.
 */
public final class EventSource extends UnboundedSource<Event, EventSource.Position> {
  /** Readers created in this JVM: one per attempt that reads (the fault tests count restarts). */
  static final AtomicInteger READERS_CREATED = new AtomicInteger();

  /** The highest position finalized in this JVM (marks are finalized once their epoch is done). */
  static final AtomicLong HIGHEST_FINALIZED = new AtomicLong(-1);

  private final EventStream stream;

  public EventSource(EventStream stream) {
    this.stream = stream;
  }

  /** The next slot to read. */
  public record Position(long nextSlot) implements UnboundedSource.CheckpointMark {
    @Override
    public void finalizeCheckpoint() {
      HIGHEST_FINALIZED.accumulateAndGet(nextSlot, Math::max);
    }
  }

  /** Encodes a {@link Position}. */
  static final class PositionCoder extends AtomicCoder<Position> {
    @Override
    public void encode(Position position, OutputStream out) throws IOException {
      VarLongCoder.of().encode(position.nextSlot(), out);
    }

    @Override
    public Position decode(InputStream in) throws IOException {
      return new Position(VarLongCoder.of().decode(in));
    }
  }

  @Override
  public List<EventSource> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this);
  }

  @Override
  public UnboundedReader<Event> createReader(PipelineOptions options, Position mark) {
    long from = mark == null ? 0 : mark.nextSlot();
    if (from < 0 || from > stream.events()) {
      throw new IllegalArgumentException(
          "Checkpoint mark at slot " + from + " is outside a stream of " + stream.events());
    }
    READERS_CREATED.incrementAndGet();
    return new Reader(from);
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return new PositionCoder();
  }

  @Override
  public Coder<Event> getOutputCoder() {
    return Event.EventCoder.of();
  }

  /** Reads slots from a position, no faster than the stream's pace since the reader started. */
  private final class Reader extends UnboundedReader<Event> {
    private final long firstSlot;
    private long startedNanos;

    /** The slot of the current event; firstSlot - 1 before the first. */
    private long current;

    private Reader(long firstSlot) {
      this.firstSlot = firstSlot;
      this.current = firstSlot - 1;
    }

    @Override
    public boolean start() {
      startedNanos = System.nanoTime();
      return advance();
    }

    @Override
    public boolean advance() {
      long next = current + 1;
      if (next >= stream.events()) {
        current = stream.events();
        return false;
      }
      long dueNanos = (next - firstSlot) * 1_000_000_000L / stream.eventsPerSecond();
      if (System.nanoTime() - startedNanos < dueNanos) {
        return false;
      }
      current = next;
      return true;
    }

    @Override
    public Event getCurrent() {
      checkCurrent();
      return stream.event(current);
    }

    @Override
    public Instant getCurrentTimestamp() {
      checkCurrent();
      return new Instant(stream.timestampMillis(current));
    }

    @Override
    public byte[] getCurrentRecordId() {
      checkCurrent();
      return Long.toString(current).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public Instant getWatermark() {
      if (current >= stream.events()) {
        return BoundedWindow.TIMESTAMP_MAX_VALUE;
      }
      if (current < 0) {
        return BoundedWindow.TIMESTAMP_MIN_VALUE;
      }
      return new Instant(stream.watermarkAfter(current));
    }

    @Override
    public Position getCheckpointMark() {
      return new Position(Math.min(current + 1, stream.events()));
    }

    @Override
    public EventSource getCurrentSource() {
      return EventSource.this;
    }

    @Override
    public void close() {}

    private void checkCurrent() {
      if (current < firstSlot || current >= stream.events()) {
        throw new NoSuchElementException("The reader is not at an event (slot " + current + ")");
      }
    }
  }
}
