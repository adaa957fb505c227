package io.arcon.runner.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProgressSettingsTest {

  private static ProgressOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(ProgressOptions.class);
  }

  @Test
  void autoIsOnOnlyWithATerminal() {
    ProgressOptions auto = options();
    assertEquals("auto", auto.getProgress());
    assertTrue(ProgressSettings.of(auto, true).enabled());
    assertFalse(ProgressSettings.of(auto, false).enabled());
    assertTrue(ProgressSettings.of(options("--progress=AUTO"), true).enabled());
  }

  @ParameterizedTest
  @ValueSource(strings = {"on", "ON", " true "})
  void onIsOnWithoutATerminal(String value) {
    assertTrue(ProgressSettings.of(options("--progress=" + value), false).enabled());
  }

  @ParameterizedTest
  @ValueSource(strings = {"off", "Off", "false"})
  void offIsOffWithATerminal(String value) {
    assertFalse(ProgressSettings.of(options("--progress=" + value), true).enabled());
  }

  @Test
  void aBadModeIsRefusedNamingTheOptionAndTheValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProgressSettings.of(options("--progress=loud"), true));
    assertTrue(e.getMessage().contains("--progress must be auto, on or off"), e.getMessage());
    assertTrue(e.getMessage().contains("'loud'"), e.getMessage());
  }

  @Test
  void aTooShortPeriodIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProgressSettings.of(options("--progressPeriodMillis=10"), true));
    assertTrue(e.getMessage().contains("--progressPeriodMillis"), e.getMessage());
    assertTrue(e.getMessage().contains("got 10"), e.getMessage());
  }

  @Test
  void linesGoToStderrUnlessAStreamIsGiven() {
    ProgressSettings defaults = ProgressSettings.of(options(), false);
    assertSame(System.err, defaults.out());
    assertEquals(5_000, defaults.periodMillis());

    ProgressOptions withStream = options("--progressPeriodMillis=250");
    PrintStream out = new PrintStream(new ByteArrayOutputStream());
    withStream.setProgressStream(out);
    ProgressSettings given = ProgressSettings.of(withStream, false);
    assertSame(out, given.out());
    assertEquals(250, given.periodMillis());
  }
}
