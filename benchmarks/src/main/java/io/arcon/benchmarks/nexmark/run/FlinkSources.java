package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.model.Event;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The event stream of a Flink run. */
final class FlinkSources {
  private FlinkSources() {}

  /**
   * Batch: the indexes {@code 0..count-1} from a number-sequence source (split by index range),
   * timestamped and watermarked per split (event times rise with the index), then turned into
   * events.
   */
  static DataStream<Event> bounded(
      StreamExecutionEnvironment env, EventGenerator generator, long count) {
    WatermarkStrategy<Long> eventTime =
        WatermarkStrategy.<Long>forMonotonousTimestamps()
            .withTimestampAssigner((index, previous) -> generator.timestampAt(index));
    return env.fromSource(new NumberSequenceSource(0, count - 1), eventTime, "Indexes")
        .map(generator::eventAt)
        .returns(TypeInformation.of(Event.class))
        .name("Events");
  }

  /**
   * Streaming: a {@link DataGeneratorSource} of one reader (as the Beam side's source), so events
   * come in index order, paced by its generator function at {@code eventsPerSecond}. Not by the
   * source's {@code RateLimiterStrategy}: its Guava limiter hands every permit over through a
   * single-thread executor ({@code CompletableFuture.runAsync} per acquire), which on this 2-core
   * machine let the Flink jobs fall seconds behind 50,000 events/s, and it stores a second of
   * permits before the first poll, so it also runs ahead of the schedule latency is measured on.
   */
  static DataStream<Event> paced(
      StreamExecutionEnvironment env,
      EventGenerator generator,
      long count,
      long eventsPerSecond,
      String latencyRunId) {
    WatermarkStrategy<Event> eventTime =
        WatermarkStrategy.<Event>forMonotonousTimestamps()
            .withTimestampAssigner((event, previous) -> event.dateTime());
    DataGeneratorSource<Event> source =
        new DataGeneratorSource<>(
            new PacedEvents(generator, latencyRunId, eventsPerSecond),
            count,
            TypeInformation.of(Event.class));
    return env.fromSource(source, eventTime, "Events").setParallelism(1);
  }

  /**
   * The generator as Flink's generator function, and the pacing: the first event it makes starts
   * the run's latency clock, and every later one waits until its time on that clock ({@code start +
   * index / rate}, as {@link PacedEventSource} does on the Beam side); a source that fell behind
   * catches up without waiting.
   */
  private static final class PacedEvents implements GeneratorFunction<Long, Event> {
    private final EventGenerator generator;
    private final String latencyRunId;
    private final double nanosPerEvent;
    private transient long startNanos;

    PacedEvents(EventGenerator generator, String latencyRunId, long eventsPerSecond) {
      this.generator = generator;
      this.latencyRunId = latencyRunId;
      this.nanosPerEvent = 1e9 / eventsPerSecond;
    }

    @Override
    public Event map(Long index) {
      if (startNanos == 0) {
        startNanos = Latency.startNanos(latencyRunId);
      }
      long early = startNanos + (long) (index * nanosPerEvent) - System.nanoTime();
      if (early > 0) {
        LockSupport.parkNanos(early);
      }
      return generator.eventAt(index);
    }
  }
}
