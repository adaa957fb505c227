package io.arcon.runner.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runner.TestArconRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** Bad web UI options are refused before the job starts, saying what is wrong and what to do. */
class WebUiSettingsTest {

  private static ArconPipelineOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(ArconPipelineOptions.class);
  }

  private static String refused(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> WebUiSettings.of(options(args), true))
        .getMessage();
  }

  @Test
  void badValuesAreRefusedWithTheOptionsName() {
    assertEquals("--webUi must be on or off; got 'maybe'", refused("--webUi=maybe"));
    assertEquals(
        "--webUiPort must be a port number from 1 to 65535; got 0", refused("--webUiPort=0"));
    assertEquals(
        "--webUiPort must be a port number from 1 to 65535; got 70000",
        refused("--webUiPort=70000"));
    assertTrue(
        refused("--webUiAddress=no-such-host.invalid")
            .startsWith("--webUiAddress 'no-such-host.invalid' is not an address of this machine"));
    String exposed = refused("--webUiAddress=0.0.0.0");
    assertTrue(exposed.contains("--webUiToken=<secret>"), exposed);
  }

  @Test
  void defaultsAreLoopbackPort8081AndNoToken() {
    WebUiSettings defaults = WebUiSettings.of(options(), true);
    assertTrue(defaults.enabled());
    assertEquals(8081, defaults.port());
    assertTrue(defaults.address().isLoopbackAddress());
    assertNull(defaults.token());
    assertFalse(WebUiSettings.of(options(), false).enabled(), "TestArconRunner's default");
    assertNull(WebUiSettings.of(options("--webUiToken= "), true).token(), "a blank token is none");
    // Another address is fine with a token.
    assertEquals(
        "t", WebUiSettings.of(options("--webUiAddress=0.0.0.0", "--webUiToken=t"), true).token());
  }

  @Test
  void theRunnerRefusesBadOptionsBeforeTheJobStarts() {
    ArconPipelineOptions options = WebUiTestSupport.options("webui-bad", TestArconRunner.class);
    options.setWebUiPort(0);
    Pipeline p = CountingPipeline.create(options);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals("--webUiPort must be a port number from 1 to 65535; got 0", e.getMessage());
  }

  @Test
  void anAddressOfAnotherMachineIsRefused() {
    ArconPipelineOptions options =
        WebUiTestSupport.options("webui-elsewhere", TestArconRunner.class);
    // TEST-NET-1 (RFC 5737): an address no machine here has.
    options.setWebUiAddress("192.0.2.1");
    options.setWebUiToken("t");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, CountingPipeline.create(options)::run);
    assertTrue(
        e.getMessage().startsWith("--webUiAddress=192.0.2.1 is not an address of this machine"),
        e.getMessage());
  }

  @Test
  void offServesNothing() {
    ArconPipelineOptions options = WebUiTestSupport.options("webui-off", TestArconRunner.class);
    options.setWebUi("off");
    PipelineResult result = CountingPipeline.create(options).run();
    assertTrue(WebUi.pageOf(((ArconPipelineResult) result).observedJob()).isEmpty());
  }
}
