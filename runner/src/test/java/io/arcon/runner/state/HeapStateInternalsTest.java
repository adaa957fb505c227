package io.arcon.runner.state;

import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class HeapStateInternalsTest extends EngineStateInternalsTest {
  @Override
  protected String engine() {
    return "heap";
  }
}
