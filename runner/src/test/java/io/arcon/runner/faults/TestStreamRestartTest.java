package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TestStream job with epochs that fails and restarts in the same JVM finishes, with every
 * window's sum exact. The stream waits for the job to be quiescent before each event; the failed
 * attempt's nodes stopped with a batch counted as in flight that no node would ever handle, and the
 * restarted stream waited for it for ever ("TestStream has waited 30002 ms ... 3 messages are still
 * in flight"). Each attempt now counts its own messages.
 */
class TestStreamRestartTest {
  private static final Instant T0 = new Instant(1_000_000_000_000L);
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static final Map<String, Long> SUMS = new ConcurrentHashMap<>();

  @Test
  void aRestartedTestStreamJobFinishesWithExactSums(@TempDir Path dir) {
    FAILED.set(false);
    SUMS.clear();
    ArconPipelineOptions options =
        FailAfterEpochs.options("test_stream_restart", dir.resolve("checkpoints"), 2);
    TestStream.Builder<KV<String, Long>> events =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()));
    Map<String, Long> expected = new HashMap<>();
    long value = 1;
    for (int step = 0; step < 6; step++) {
      for (String key : new String[] {"a", "b", "c"}) {
        Instant at = T0.plus(Duration.standardSeconds(5L * step + 1));
        events = events.addElements(TimestampedValue.of(KV.of(key, value), at));
        expected.merge(key + "@" + windowStart(at), value, Long::sum);
        value++;
      }
      events =
          events
              .advanceProcessingTime(Duration.standardSeconds(1))
              .advanceWatermarkTo(T0.plus(Duration.standardSeconds(5L * step + 2)));
    }

    Pipeline p = Pipeline.create(options);
    p.apply(events.advanceWatermarkToInfinity())
        // Keyed (stateful): the batches reach it across an edge, counted while in flight.
        .apply("FailOnce", ParDo.of(new FailOnce()))
        .apply(Window.into(FixedWindows.of(Duration.standardSeconds(10))))
        .apply(Sum.longsPerKey())
        .apply("Record", ParDo.of(new Record()));
    PipelineResult result = p.run();
    PipelineResult.State state = result.waitUntilFinish(org.joda.time.Duration.standardSeconds(90));
    if (state == null || !state.isTerminal()) {
      try {
        result.cancel();
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
    assertEquals(PipelineResult.State.DONE, state, "the restarted job must finish");
    assertTrue(FAILED.get(), "the planned failure happened");
    assertEquals(expected, SUMS);
  }

  private static long windowStart(Instant at) {
    long size = Duration.standardSeconds(10).getMillis();
    return at.getMillis() - Math.floorMod(at.getMillis(), size);
  }

  /** Passes elements on; throws once, at the first element of the first attempt. */
  static final class FailOnce extends DoFn<KV<String, Long>, KV<String, Long>> {
    @StateId("seen")
    private final StateSpec<ValueState<Long>> seen = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(
        @Element KV<String, Long> element,
        @StateId("seen") ValueState<Long> seen,
        OutputReceiver<KV<String, Long>> out) {
      if (FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("planned failure at " + element);
      }
      Long n = seen.read();
      seen.write(n == null ? 1 : n + 1);
      out.output(element);
    }
  }

  /** Keeps each window's sum per key (a replayed pane after the restart writes the same sum). */
  static final class Record extends DoFn<KV<String, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<String, Long> sum, BoundedWindow window) {
      SUMS.put(sum.getKey() + "@" + ((IntervalWindow) window).start().getMillis(), sum.getValue());
    }
  }
}
