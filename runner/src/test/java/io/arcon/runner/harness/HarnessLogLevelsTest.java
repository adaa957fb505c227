package io.arcon.runner.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.SdkHarnessOptions;
import org.apache.beam.sdk.options.SdkHarnessOptions.LogLevel;
import org.apache.beam.sdk.options.SdkHarnessOptions.SdkHarnessLogLevelOverrides;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HarnessLogLevelsTest {
  private static final String NAME = "io.arcon.test.harness.a.b";
  private final Logger root = Logger.getLogger("");
  private final Logger named = Logger.getLogger(NAME);
  private Level rootBefore;

  @BeforeEach
  void remember() {
    rootBefore = root.getLevel();
    named.setLevel(null);
  }

  @AfterEach
  void restore() {
    root.setLevel(rootBefore);
    named.setLevel(null);
  }

  private static SdkHarnessOptions options(LogLevel defaultLevel, LogLevel namedLevel) {
    SdkHarnessOptions options = PipelineOptionsFactory.as(SdkHarnessOptions.class);
    options.setDefaultSdkHarnessLogLevel(defaultLevel);
    if (namedLevel != null) {
      options.setSdkHarnessLogLevelOverrides(
          new SdkHarnessLogLevelOverrides().addOverrideForName(NAME, namedLevel));
    }
    return options;
  }

  @Test
  void appliesTheJobsLevelsAndRestoresThemWhenItEnds() {
    HarnessLogLevels.Lease lease = HarnessLogLevels.apply(options(LogLevel.DEBUG, LogLevel.WARN));

    assertEquals(Level.FINE, root.getLevel());
    assertEquals(Level.WARNING, named.getLevel());

    lease.release();
    assertEquals(rootBefore, root.getLevel());
    assertNull(named.getLevel());
  }

  @Test
  void concurrentJobsGetTheMostVerboseLevelAndEachLeavesTheOthersLevels() {
    HarnessLogLevels.Lease first = HarnessLogLevels.apply(options(LogLevel.DEBUG, LogLevel.WARN));
    HarnessLogLevels.Lease second = HarnessLogLevels.apply(options(LogLevel.INFO, LogLevel.TRACE));

    assertEquals(Level.FINE, root.getLevel());
    assertEquals(Level.FINEST, named.getLevel());

    first.release();
    assertEquals(Level.INFO, root.getLevel());
    assertEquals(Level.FINEST, named.getLevel());

    second.release();
    second.release(); // idempotent: must not touch levels another job may have set meanwhile
    assertEquals(rootBefore, root.getLevel());
    assertNull(named.getLevel());
  }

  /**
   * Reports whether the harness logger {@link #NAME} logs at FINE while the element is processed.
   */
  private static class LoggableAtFine extends DoFn<String, Boolean> {
    @ProcessElement
    public void process(OutputReceiver<Boolean> out) {
      out.output(Logger.getLogger(NAME).isLoggable(Level.FINE));
    }
  }

  @Test
  void userCodeLogsAtTheJobsLevelWhileTheJobRuns() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(2);
    options.as(SdkHarnessOptions.class).setDefaultSdkHarnessLogLevel(LogLevel.WARN);
    options
        .as(SdkHarnessOptions.class)
        .setSdkHarnessLogLevelOverrides(
            new SdkHarnessLogLevelOverrides().addOverrideForName(NAME, LogLevel.DEBUG));
    Pipeline pipeline = Pipeline.create(options);
    PCollection<Boolean> loggable =
        pipeline.apply(Create.of(List.of("a", "b"))).apply(ParDo.of(new LoggableAtFine()));
    PAssert.that(loggable).containsInAnyOrder(true, true);

    pipeline.run().waitUntilFinish();

    assertEquals(rootBefore, root.getLevel());
    assertNull(named.getLevel());
  }
}
