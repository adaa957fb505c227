package io.arcon.runner.checkpointing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class CheckpointSettingsTest {
  private static CheckpointingOptions parse(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(CheckpointingOptions.class);
  }

  @Test
  void offByDefaultWithoutRestarts() {
    CheckpointSettings s = CheckpointSettings.of(parse(), null);
    assertFalse(s.enabled());
    assertEquals(0, s.retries());
    assertEquals(3, s.retainedCheckpoints());
    assertNull(s.restoreFrom());
    assertEquals(
        Path.of(System.getProperty("java.io.tmpdir"), "arcon-checkpoints"), s.checkpointDir());
  }

  @Test
  void checkpointingBringsRestartsAndADirectoryUnderTheStateDir() {
    CheckpointSettings s =
        CheckpointSettings.of(parse("--checkpointingInterval=500"), "/var/arcon/state");
    assertTrue(s.enabled());
    assertEquals(500, s.intervalMillis());
    assertEquals(CheckpointSettings.DEFAULT_RETRIES_WITH_CHECKPOINTS, s.retries());
    assertEquals(CheckpointSettings.DEFAULT_RETRY_DELAY_MILLIS, s.retryDelayMillis());
    assertEquals(CheckpointSettings.DEFAULT_TIMEOUT_MILLIS, s.timeoutMillis());
    assertEquals(Path.of("/var/arcon/state", "checkpoints"), s.checkpointDir());
  }

  @Test
  void explicitValuesWin() {
    CheckpointSettings s =
        CheckpointSettings.of(
            parse(
                "--checkpointingInterval=100",
                "--checkpointDir=/c",
                "--retainedCheckpoints=5",
                "--numberOfExecutionRetries=0",
                "--executionRetryDelay=0",
                "--checkpointTimeoutMillis=2000",
                "--restoreFrom=/c/job"),
            "/ignored");
    assertEquals(Path.of("/c"), s.checkpointDir());
    assertEquals(5, s.retainedCheckpoints());
    assertEquals(0, s.retries());
    assertEquals(0, s.retryDelayMillis());
    assertEquals(2000, s.timeoutMillis());
    assertEquals(Path.of("/c/job"), s.restoreFrom());
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertMessage("--checkpointingInterval", "--checkpointingInterval=0");
    assertMessage("--checkpointingInterval", "--checkpointingInterval=-5");
    assertMessage("--retainedCheckpoints", "--retainedCheckpoints=0");
    assertMessage("--numberOfExecutionRetries", "--numberOfExecutionRetries=-2");
    assertMessage("--executionRetryDelay", "--executionRetryDelay=-3");
    assertMessage("--checkpointTimeoutMillis", "--checkpointTimeoutMillis=0");
    // An unset variable ("--restoreFrom=$DIR") must not start the job from the beginning.
    assertMessage("--restoreFrom is empty", "--restoreFrom=");
    assertMessage("--checkpointDir is empty", "--checkpointDir=");
  }

  private static void assertMessage(String option, String arg) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CheckpointSettings.of(parse(arg), null));
    assertTrue(e.getMessage().startsWith(option), e.getMessage());
  }
}
