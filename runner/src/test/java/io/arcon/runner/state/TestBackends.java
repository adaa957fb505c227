package io.arcon.runner.state;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.List;

/** Opens the engines the state tests run against. */
final class TestBackends {
  private TestBackends() {}

  /** Every engine; parameterized tests use it through {@code @MethodSource}. */
  static List<String> engines() {
    return List.of("heap", "rocksdb", "lmdb");
  }

  static StateBackend open(String engine, Path dir) {
    return StateBackends.open(StateBackendConfig.of(engine, dir));
  }
}
