package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lmdb engine's key size limit as a user meets it: the longest user key (a String, whose
 * encoded form is its UTF-8 bytes) a stateful DoFn can use, as the README states it, and an error
 * naming the transform one byte beyond.
 */
class LmdbKeyLimitTest {
  /** In the global window with a ValueState "v": 15 bytes of address in 'beam_state'. */
  static final int LONGEST_KEY_STATE_ONLY = 495;

  /** With an event-time timer "t" too: 31 bytes of address in 'beam_timer_index'. */
  static final int LONGEST_KEY_WITH_TIMER = 479;

  /** In a one-minute fixed window, where the runner sets a window cleanup timer per key. */
  static final int LONGEST_KEY_IN_A_FIXED_WINDOW = 444;

  @TempDir Path stateDir;

  private enum Shape {
    STATE_ONLY,
    WITH_TIMER,
    FIXED_WINDOW
  }

  private Pipeline pipeline(int keyBytes, Shape shape) {
    ArconPipelineOptions options =
        PipelineOptionsFactory.fromArgs("--stateBackend=lmdb", "--stateDir=" + stateDir)
            .as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(1);
    Pipeline p = Pipeline.create(options);
    PCollection<KV<String, Integer>> input =
        p.apply(
            "Input",
            Create.timestamped(
                    TimestampedValue.of(KV.of("k".repeat(keyBytes), 1), new Instant(1_000_000)))
                .withCoder(KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of())));
    if (shape == Shape.FIXED_WINDOW) {
      input = input.apply(Window.into(FixedWindows.of(Duration.standardMinutes(1))));
    }
    input.apply(
        "Keep", shape == Shape.WITH_TIMER ? ParDo.of(new KeepWithTimer()) : ParDo.of(new Keep()));
    return p;
  }

  private String failure(int keyBytes, Shape shape) {
    Pipeline p = pipeline(keyBytes, shape);
    Throwable t = assertThrows(RuntimeException.class, p::run);
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  private static String expected(String table, int rowKeyBytes, String transform) {
    return "The lmdb state backend stores keys of at most 510 bytes; table '"
        + table
        + "' of transform '"
        + transform
        + "' got a key of "
        + rowKeyBytes
        + " bytes (a row key is the transform's encoded key plus the address of a state or timer"
        + " under it). Use the rocksdb or heap engine for this transform (e.g. --stateBackends="
        + transform
        + "=rocksdb) or shorten its keys.";
  }

  @Test
  void stateOnlyInTheGlobalWindowTakesKeysUpTo495BytesAndTheErrorNamesTheTransform() {
    pipeline(LONGEST_KEY_STATE_ONLY, Shape.STATE_ONLY).run();
    assertEquals(
        expected("beam_state", 511, "Keep/ParMultiDo(Keep)"),
        failure(LONGEST_KEY_STATE_ONLY + 1, Shape.STATE_ONLY));
  }

  @Test
  void aTimerTakesKeysUpTo479Bytes() {
    pipeline(LONGEST_KEY_WITH_TIMER, Shape.WITH_TIMER).run();
    assertEquals(
        expected("beam_timer_index", 511, "Keep/ParMultiDo(KeepWithTimer)"),
        failure(LONGEST_KEY_WITH_TIMER + 1, Shape.WITH_TIMER));
  }

  @Test
  void aFixedWindowsCleanupTimerTakesKeysUpTo444Bytes() {
    pipeline(LONGEST_KEY_IN_A_FIXED_WINDOW, Shape.FIXED_WINDOW).run();
    assertEquals(
        expected("beam_timer_index", 511, "Keep/ParMultiDo(Keep)"),
        failure(LONGEST_KEY_IN_A_FIXED_WINDOW + 1, Shape.FIXED_WINDOW));
  }

  static final class Keep extends DoFn<KV<String, Integer>, Void> {
    @StateId("v")
    private final StateSpec<ValueState<Integer>> v = StateSpecs.value(VarIntCoder.of());

    @ProcessElement
    public void process(@Element KV<String, Integer> e, @StateId("v") ValueState<Integer> v) {
      v.write(e.getValue());
    }
  }

  static final class KeepWithTimer extends DoFn<KV<String, Integer>, Void> {
    @StateId("v")
    private final StateSpec<ValueState<Integer>> v = StateSpecs.value(VarIntCoder.of());

    @TimerId("t")
    private final TimerSpec t = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<String, Integer> e,
        @StateId("v") ValueState<Integer> v,
        @TimerId("t") Timer t) {
      v.write(e.getValue());
      t.offset(Duration.standardSeconds(1)).setRelative();
    }

    @OnTimer("t")
    public void onTimer() {}
  }
}
