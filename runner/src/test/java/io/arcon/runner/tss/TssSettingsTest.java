package io.arcon.runner.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class TssSettingsTest {

  private static ArconPipelineOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(ArconPipelineOptions.class);
  }

  @Test
  void defaultsAreOnForArconRunnerAtTheLoopbackEndpointWithAnHourOfHistory() {
    TssSettings s = TssSettings.of(options("--jobName=click-counter.v2"), true);
    assertTrue(s.enabled());
    assertEquals("click_counter_v2", s.app());
    assertEquals("127.0.0.1", s.host());
    assertEquals(47470, s.port());
    assertEquals(Path.of(System.getProperty("user.home"), ".arcon", "tss"), s.home());
    assertEquals(Duration.ofHours(1), s.stateHistory());
    assertFalse(TssSettings.of(options(), false).enabled(), "the test runner's default is off");
  }

  @Test
  void exportGlobsMatchFullNamesAndEnclosingComposites() {
    TssSettings s = TssSettings.of(options("--tssExport=Count*, Enrich/Dedup"), true);
    assertTrue(s.exports("CountClicks/ParMultiDo(CountClicks)"));
    assertTrue(s.exports("Enrich/Dedup/ParMultiDo(Dedup)"));
    assertFalse(s.exports("Hits/ParMultiDo(CountHits)"));
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertEquals(
        "--tss must be on or off; got 'maybe'",
        assertThrows(
                IllegalArgumentException.class, () -> TssSettings.of(options("--tss=maybe"), true))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> TssSettings.of(options("--tssEndpoint=localhost"), true))
            .getMessage()
            .startsWith("--tssEndpoint must be host:port"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> TssSettings.of(options("--tssEndpoint=localhost:99999"), true))
            .getMessage()
            .startsWith("--tssEndpoint port must be a number from 1 to 65535"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> TssSettings.of(options("--stateHistory=1h"), true))
            .getMessage()
            .startsWith("--stateHistory must be an ISO-8601 duration"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> TssSettings.of(options("--stateHistory=PT0S"), true))
            .getMessage()
            .startsWith("--stateHistory must be positive"));
  }
}
