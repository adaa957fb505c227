package io.arcon.examples.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.examples.IndexedEventSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SimulatedEventSourceTest {

  private static final PipelineOptions OPTIONS = PipelineOptionsFactory.create();

  /** What a reader emitted: the element, its timestamp and the watermark right after it. */
  private record Emitted(KV<String, Long> event, Instant time, Instant watermarkAfter) {}

  private static List<Emitted> readAll(UnboundedReader<KV<String, Long>> reader)
      throws IOException {
    List<Emitted> emitted = new ArrayList<>();
    for (boolean more = reader.start(); more; more = reader.advance()) {
      emitted.add(
          new Emitted(reader.getCurrent(), reader.getCurrentTimestamp(), reader.getWatermark()));
    }
    return emitted;
  }

  @ParameterizedTest(name = "{0} splits")
  @ValueSource(ints = {1, 3})
  void splitsEmitEveryEventOnceWithAWatermarkBehindAllLaterOnes(int splits) throws IOException {
    SimulatedEvents events = SimulatedEventsTest.events(5);
    int maxEvents = 3_000;
    List<SimulatedEventSource> shards =
        new SimulatedEventSource(events, maxEvents, 0).split(splits, OPTIONS);
    assertEquals(splits, shards.size());
    int total = 0;
    for (int s = 0; s < shards.size(); s++) {
      UnboundedReader<KV<String, Long>> reader = shards.get(s).createReader(OPTIONS, null);
      List<Emitted> emitted = readAll(reader);
      // Shard s emits s, s + n, s + 2n, ...: exactly the spec's events, in index order.
      List<KV<String, Long>> expected = new ArrayList<>();
      List<Instant> expectedTimes = new ArrayList<>();
      for (long i = s; i < maxEvents; i += splits) {
        expected.add(events.event(i));
        expectedTimes.add(events.eventTime(i));
      }
      assertEquals(expected, emitted.stream().map(Emitted::event).toList(), "shard " + s);
      assertEquals(expectedTimes, emitted.stream().map(Emitted::time).toList(), "shard " + s);
      for (int k = 0; k < emitted.size(); k++) {
        for (int later = k + 1; later < emitted.size(); later++) {
          assertFalse(
              emitted.get(later).time().isBefore(emitted.get(k).watermarkAfter()),
              "shard " + s + ": watermark after element " + k + " passes element " + later);
        }
      }
      assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, reader.getWatermark(), "after the end");
      total += emitted.size();
    }
    assertEquals(maxEvents, total);
  }

  @Test
  void aReaderResumesFromItsCheckpointWithTheNextEvent() throws IOException {
    SimulatedEvents events = SimulatedEventsTest.events(5);
    SimulatedEventSource source = new SimulatedEventSource(events, 200, 0);
    UnboundedReader<KV<String, Long>> first = source.createReader(OPTIONS, null);
    assertTrue(first.start());
    for (int i = 1; i < 120; i++) {
      assertTrue(first.advance());
    }
    // Through the coder, as a runner would persist it.
    IndexedEventSource.Checkpoint checkpoint =
        CoderUtils.clone(
            source.getCheckpointMarkCoder(),
            (IndexedEventSource.Checkpoint) first.getCheckpointMark());
    List<Emitted> rest = readAll(source.createReader(OPTIONS, checkpoint));
    assertEquals(80, rest.size());
    for (int k = 0; k < rest.size(); k++) {
      assertEquals(events.event(120 + k), rest.get(k).event(), "event " + (120 + k));
      assertEquals(events.eventTime(120 + k), rest.get(k).time(), "time of " + (120 + k));
    }
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void noEventIsEmittedBeforeTheSimulatedClockReachesIt() throws IOException {
    SimulatedEvents events = SimulatedEventsTest.events(5);
    double speed = 1_000; // 500 ms of event spacing: one event every 0.5 ms of wall time
    UnboundedReader<KV<String, Long>> reader =
        new SimulatedEventSource(events, SimulatedEventSource.UNBOUNDED, speed)
            .createReader(OPTIONS, null);
    long before = System.nanoTime();
    assertTrue(reader.start(), "event 0 is due when the clock starts");
    for (long i = 1; i <= 1_000; i++) {
      while (!reader.advance()) {
        Thread.onSpinWait();
      }
      double elapsedMillis = (System.nanoTime() - before) / 1e6;
      double dueMillis =
          (events.emittedAt(i).getMillis() - events.emittedAt(0).getMillis()) / speed;
      assertTrue(
          elapsedMillis >= dueMillis,
          "event " + i + " emitted after " + elapsedMillis + " ms, due after " + dueMillis + " ms");
      assertEquals(events.eventTime(i), reader.getCurrentTimestamp());
    }
    // An unbounded source never jumps to the end of time.
    assertTrue(reader.getWatermark().isBefore(BoundedWindow.TIMESTAMP_MAX_VALUE));
  }

  @Test
  void aSlowClockHoldsTheNextEventBack() throws IOException {
    SimulatedEvents events = SimulatedEventsTest.events(5);
    // Real time: the next event is due 500 ms after the first.
    UnboundedReader<KV<String, Long>> reader =
        new SimulatedEventSource(events, SimulatedEventSource.UNBOUNDED, 1)
            .createReader(OPTIONS, null);
    assertTrue(reader.start());
    assertFalse(reader.advance(), "event 1 emitted before the clock reached it");
    assertEquals(events.eventTime(0), reader.getCurrentTimestamp());
  }

  @Test
  void refusesANegativeOrInfiniteSpeed() {
    SimulatedEvents events = SimulatedEventsTest.events(5);
    for (double speed : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException error =
          assertThrows(
              IllegalArgumentException.class, () -> new SimulatedEventSource(events, 1, speed));
      assertTrue(error.getMessage().contains("got " + speed), error.getMessage());
    }
  }
}
