package io.arcon.runner.state;

/**
 * Points Beam's {@code TestPipeline} at ArconRunner with one state engine, for the suites that run
 * Beam's stateful ValidatesRunner tests ({@code ParDoTest}'s state and timer classes, categories
 * UsesStatefulParDo and UsesTimersInParDo) once per persistent engine.
 */
final class StatefulValidatesRunner {
  private static final String OPTIONS = "beamTestPipelineOptions";
  private static final String TIMEOUT = "arcon.test.timeoutSeconds";
  private static String previousOptions;
  private static String previousTimeout;

  private StatefulValidatesRunner() {}

  /** Makes every TestPipeline created from now on run on TestArconRunner with {@code engine}. */
  static void useEngine(String engine) {
    previousOptions = System.getProperty(OPTIONS);
    previousTimeout = System.getProperty(TIMEOUT);
    System.setProperty(
        OPTIONS,
        "[\"--runner=TestArconRunner\",\"--parallelism=2\",\"--stateBackend=" + engine + "\"]");
    // One hung pipeline fails its test instead of stalling the suite.
    System.setProperty(TIMEOUT, "120");
  }

  static void restore() {
    restore(OPTIONS, previousOptions);
    restore(TIMEOUT, previousTimeout);
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }
}
