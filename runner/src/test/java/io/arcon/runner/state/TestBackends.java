package io.arcon.runner.state;

import io.arcon.state.StateBackend;
import java.nio.file.Path;

/** Opens the engines the state tests run against. */
final class TestBackends {
  private TestBackends() {}

  static StateBackend open(String engine, Path dir) {
    if (engine.equals("treemap")) {
      return new TreeMapStateBackend();
    }
    throw new IllegalArgumentException("unknown engine " + engine);
  }
}
