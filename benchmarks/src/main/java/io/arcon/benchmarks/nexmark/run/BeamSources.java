package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.model.Event;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Instant;

/** The event stream of a Beam run. */
final class BeamSources {
  private BeamSources() {}

  /**
   * Batch: the indexes {@code 0..count-1} from {@link GenerateSequence} (split by index range as
   * the runner asks), each turned into its event, timestamped at the event time.
   */
  static PCollection<Event> bounded(Pipeline pipeline, EventGenerator generator, long count) {
    return pipeline
        .apply("Indexes", GenerateSequence.from(0).to(count))
        .apply("Events", ParDo.of(new ToEvent(generator)));
  }

  /** Streaming: {@link PacedEventSource} at {@code eventsPerSecond}. */
  static PCollection<Event> paced(
      Pipeline pipeline,
      EventGenerator generator,
      long count,
      long eventsPerSecond,
      String latencyRunId) {
    return pipeline.apply(
        "Events", Read.from(new PacedEventSource(generator, count, eventsPerSecond, latencyRunId)));
  }

  private static final class ToEvent extends DoFn<Long, Event> {
    private final EventGenerator generator;

    ToEvent(EventGenerator generator) {
      this.generator = generator;
    }

    @ProcessElement
    public void process(@Element Long index, OutputReceiver<Event> out) {
      out.outputWithTimestamp(generator.eventAt(index), new Instant(generator.timestampAt(index)));
    }
  }
}
