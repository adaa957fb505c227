package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.model.Event;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The Beam streaming source: events {@code 0..count-1} of the generator, event {@code i} emitted no
 * earlier than {@code i / rate} seconds after the first, with a watermark at the time of the next
 * event (event times rise with the index, so it is exact). One reader, as on the Flink side, so the
 * stream is emitted in index order. It ends, watermark at the end of time, after the last.
 */
final class PacedEventSource extends UnboundedSource<Event, PacedEventSource.Position> {
  private final EventGenerator generator;
  private final long count;
  private final long eventsPerSecond;
  private final String latencyRunId;

  PacedEventSource(
      EventGenerator generator, long count, long eventsPerSecond, String latencyRunId) {
    this.generator = generator;
    this.count = count;
    this.eventsPerSecond = eventsPerSecond;
    this.latencyRunId = latencyRunId;
  }

  @Override
  public List<PacedEventSource> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this);
  }

  @Override
  public UnboundedReader<Event> createReader(PipelineOptions options, Position restart) {
    return new Reader(restart == null ? 0 : restart.next);
  }

  @Override
  public Coder<Position> getCheckpointMarkCoder() {
    return new PositionCoder();
  }

  @Override
  public Coder<Event> getOutputCoder() {
    return Event.EventCoder.of();
  }

  /** The index of the next event to emit; nothing to finalize. */
  record Position(long next) implements UnboundedSource.CheckpointMark {
    @Override
    public void finalizeCheckpoint() {}
  }

  private static final class PositionCoder extends CustomCoder<Position> {
    @Override
    public void encode(Position p, OutputStream out) throws IOException {
      VarLongCoder.of().encode(p.next, out);
    }

    @Override
    public Position decode(InputStream in) throws IOException {
      return new Position(VarLongCoder.of().decode(in));
    }
  }

  private final class Reader extends UnboundedReader<Event> {
    private long next;
    private Event current;
    private long currentTimestamp;
    private long startNanos;

    Reader(long next) {
      this.next = next;
    }

    @Override
    public boolean start() {
      startNanos = Latency.startNanos(latencyRunId);
      return advance();
    }

    @Override
    public boolean advance() {
      if (next >= count) {
        current = null;
        return false;
      }
      long dueNanos = startNanos + (long) (next * (1e9 / eventsPerSecond));
      if (System.nanoTime() < dueNanos) {
        current = null;
        return false;
      }
      current = generator.eventAt(next);
      currentTimestamp = generator.timestampAt(next);
      next++;
      return true;
    }

    @Override
    public Event getCurrent() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return new Instant(currentTimestamp);
    }

    @Override
    public Instant getWatermark() {
      return next >= count
          ? BoundedWindow.TIMESTAMP_MAX_VALUE
          : new Instant(generator.timestampAt(next));
    }

    @Override
    public Position getCheckpointMark() {
      return new Position(next);
    }

    @Override
    public PacedEventSource getCurrentSource() {
      return PacedEventSource.this;
    }

    @Override
    public void close() {}
  }
}
