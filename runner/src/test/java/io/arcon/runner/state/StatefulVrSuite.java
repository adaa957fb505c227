package io.arcon.runner.state;

import java.util.Map;
import org.junit.experimental.categories.Categories;
import org.junit.runner.Description;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.manipulation.NoTestsRemainException;
import org.junit.runners.model.InitializationError;
import org.junit.runners.model.RunnerBuilder;

/**
 * {@link Categories} without the tests that fail on every engine, heap included: those are runner
 * bugs, not state-engine bugs, and are tracked by the validates-runner module; this suite exists to
 * show that moving state to another engine breaks nothing.
 */
public final class StatefulVrSuite extends Categories {
  /** {@code Class#method} of Beam tests that fail on heap too, with the reason. */
  static final Map<String, String> FAILING_ON_EVERY_ENGINE =
      Map.of(
          "org.apache.beam.sdk.transforms.ParDoTest$TimerTests#testOutputTimestampWithProcessingTime",
          "flaky on every engine, heap included: a processing-time timer with an output timestamp"
              + " under TestStream sometimes never lets the pipeline finish (runtime bug, also"
              + " excluded in validates-runner/exclusions.txt)");

  public StatefulVrSuite(Class<?> suite, RunnerBuilder builder) throws InitializationError {
    super(suite, builder);
    try {
      filter(
          new Filter() {
            @Override
            public boolean shouldRun(Description description) {
              return description.getMethodName() == null
                  || !FAILING_ON_EVERY_ENGINE.containsKey(
                      description.getClassName() + "#" + description.getMethodName());
            }

            @Override
            public String describe() {
              return "without tests failing on every engine " + FAILING_ON_EVERY_ENGINE.keySet();
            }
          });
    } catch (NoTestsRemainException e) {
      throw new InitializationError(e);
    }
  }
}
