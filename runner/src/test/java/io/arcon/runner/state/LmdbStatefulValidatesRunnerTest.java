package io.arcon.runner.state;

import org.apache.beam.sdk.testing.UsesStatefulParDo;
import org.apache.beam.sdk.testing.UsesTimersInParDo;
import org.apache.beam.sdk.transforms.ParDoTest;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.experimental.categories.Categories;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/**
 * Beam's ValidatesRunner tests of categories UsesStatefulParDo and UsesTimersInParDo on ArconRunner
 * with {@code --stateBackend=lmdb}: all of a stateful transform's Beam state and timers live in the
 * lmdb engine.
 */
@RunWith(Categories.class)
@Categories.IncludeCategory({UsesStatefulParDo.class, UsesTimersInParDo.class})
@Suite.SuiteClasses({
  ParDoTest.StateTests.class,
  ParDoTest.TimerTests.class,
  ParDoTest.TimerFamilyTests.class,
  ParDoTest.OnWindowExpirationTests.class,
  ParDoTest.KeyTests.class,
  ParDoTest.StateCoderInferenceTests.class,
  ParDoTest.TimerCoderInferenceTests.class
})
public class LmdbStatefulValidatesRunnerTest {
  @BeforeClass
  public static void useEngine() {
    StatefulValidatesRunner.useEngine("lmdb");
  }

  @AfterClass
  public static void restore() {
    StatefulValidatesRunner.restore();
  }
}
