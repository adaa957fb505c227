package io.arcon.runner.state;

import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StateInternalsTest;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class TreeMapStateInternalsTest extends StateInternalsTest {
  @Override
  protected StateInternals createStateInternals() {
    BackendStateInternals<String> internals =
        new BackendStateInternals<>(new TreeMapStateBackend(), StringUtf8Coder.of());
    internals.setKey("key");
    return internals;
  }
}
