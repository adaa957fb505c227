package io.arcon.runner.state;

import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StateInternalsTest;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** Beam's own StateInternals contract tests over the heap engine. */
@RunWith(JUnit4.class)
public class HeapStateInternalsTest extends StateInternalsTest {
  @Override
  protected StateInternals createStateInternals() {
    BackendStateInternals<String> internals =
        new BackendStateInternals<>(TestBackends.open("heap", null), StringUtf8Coder.of());
    internals.setKey("key");
    return internals;
  }
}
