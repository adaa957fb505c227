package io.arcon.runner.checkpointing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @RequiresStableInput} under epochs: the DoFn sees an element only once the epoch that
 * contains it is durable, so after a restart it sees the same input again, even when what produced
 * that input is not deterministic.
 */
class RequiresStableInputTest {
  static final int ELEMENTS = 20_000;

  /** Per element, every tag the stable DoFn saw for it. */
  static final Map<Long, Set<String>> SEEN = new ConcurrentHashMap<>();

  static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  /** Not deterministic: a replay after a restart tags an element anew. */
  static class TagRandomly extends DoFn<Long, KV<Long, String>> {
    @ProcessElement
    public void process(@Element Long e, OutputReceiver<KV<Long, String>> out) {
      out.output(KV.of(e, UUID.randomUUID().toString()));
    }
  }

  /** A side effect that must see stable input; fails the attempts while failures are left. */
  static class RecordStably extends DoFn<KV<Long, String>, Void> {
    @RequiresStableInput
    @ProcessElement
    public void process(@Element KV<Long, String> e) {
      SEEN.computeIfAbsent(e.getKey(), k -> ConcurrentHashMap.newKeySet()).add(e.getValue());
      if (e.getKey() % 5_000 == 4_999 && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("injected failure after a side effect");
      }
    }
  }

  /** The same side effect without the annotation: a replay may tag elements anew. */
  static class RecordDirectly extends DoFn<KV<Long, String>, Void> {
    @ProcessElement
    public void process(@Element KV<Long, String> e) {
      SEEN.computeIfAbsent(e.getKey(), k -> ConcurrentHashMap.newKeySet()).add(e.getValue());
      if (e.getKey() % 5_000 == 4_999 && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("injected failure after a side effect");
      }
    }
  }

  @Test
  void withoutTheAnnotationEveryElementStillArrives(@TempDir Path dir) {
    SEEN.clear();
    FAILURES_LEFT.set(3);
    Pipeline p = pipeline(dir);
    p.apply(GenerateSequence.from(0).to(ELEMENTS).withRate(10_000, Duration.standardSeconds(1)))
        .apply(ParDo.of(new TagRandomly()))
        .apply(ParDo.of(new RecordDirectly()));
    assertEquals(PipelineResult.State.DONE, p.run().waitUntilFinish());
    assertTrue(FAILURES_LEFT.get() < 0, "every injected failure happened");
    assertEquals(ELEMENTS, SEEN.size(), "every element reached the DoFn");
    // What the annotation prevents: the element that failed was replayed through the random tag.
    // (It fails on each of its replays while failures are left: one tag per attempt.)
    assertEquals(4, SEEN.get(4_999L).size(), "tags seen for the element that failed 3 times");
  }

  /** The elements never seen, as ranges. */
  private static String missing() {
    StringBuilder ranges = new StringBuilder();
    long start = -1;
    for (long i = 0; i <= ELEMENTS; i++) {
      boolean absent = i < ELEMENTS && !SEEN.containsKey(i);
      if (absent && start < 0) {
        start = i;
      } else if (!absent && start >= 0) {
        ranges.append(start).append("..").append(i - 1).append(' ');
        start = -1;
      }
    }
    return ranges.toString();
  }

  private static Pipeline pipeline(Path dir) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    options.setTss("off");
    options.setJobName("stable-input");
    options.setCheckpointingInterval(30L);
    options.setCheckpointDir(dir.toString());
    options.setNumberOfExecutionRetries(10);
    options.setExecutionRetryDelay(10L);
    return Pipeline.create(options);
  }

  @Test
  void aRestartFeedsTheStableDoFnTheSameInput(@TempDir Path dir) {
    SEEN.clear();
    FAILURES_LEFT.set(3);
    Pipeline p = pipeline(dir);
    p.apply(GenerateSequence.from(0).to(ELEMENTS).withRate(10_000, Duration.standardSeconds(1)))
        .apply(ParDo.of(new TagRandomly()))
        .apply(ParDo.of(new RecordStably()));
    assertEquals(PipelineResult.State.DONE, p.run().waitUntilFinish());

    assertTrue(FAILURES_LEFT.get() < 0, "every injected failure happened");
    assertEquals(
        ELEMENTS, SEEN.size(), "every element reached the stable DoFn; missing " + missing());
    for (Map.Entry<Long, Set<String>> e : SEEN.entrySet()) {
      assertEquals(1, e.getValue().size(), "tags seen for element " + e.getKey());
    }
  }
}
