package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.generator.GeneratorConfig;
import io.arcon.benchmarks.nexmark.query.QueryConfig;

/**
 * What a run of a query depends on besides the query and the runner.
 *
 * @param mode bounded input or paced stream
 * @param events events of the run
 * @param rate events per second of a streaming run's source (unused in batch)
 * @param parallelism parallel instances on every runner
 * @param generator the event stream; in streaming its event-time rate is {@code rate}
 * @param queries the queries' parameters
 */
public record RunSettings(
    Mode mode,
    long events,
    long rate,
    int parallelism,
    GeneratorConfig generator,
    QueryConfig queries) {

  /** Windows of 10 s (period 5 s), sessions with a 10 s gap, processing-time windows of 10 s. */
  public static QueryConfig defaultQueries(GeneratorConfig generator) {
    return new QueryConfig(
        10_000, 5_000, 10_000, 10_000, new EventGenerator(generator).maxAuctionDurationMillis());
  }

  public RunSettings {
    if (events <= 0) {
      throw new IllegalArgumentException("--events must be positive, got " + events);
    }
    if (parallelism <= 0) {
      throw new IllegalArgumentException("--parallelism must be positive, got " + parallelism);
    }
    if (mode == Mode.STREAMING && rate <= 0) {
      throw new IllegalArgumentException(
          "--rate (events/s of the streaming source) must be positive, got " + rate);
    }
    if (mode == Mode.STREAMING && generator.eventsPerSecond() != rate) {
      // Latency is measured against the schedule event time gives (Latency), so they must agree.
      throw new IllegalArgumentException(
          "A streaming run's event time must advance at its rate: generator "
              + generator.eventsPerSecond()
              + " events/s, rate "
              + rate);
    }
  }

  /** These settings with another number of events (a warm-up). */
  public RunSettings withEvents(long newEvents) {
    return new RunSettings(mode, newEvents, rate, parallelism, generator, queries);
  }

  public EventGenerator eventGenerator() {
    return new EventGenerator(generator);
  }
}
