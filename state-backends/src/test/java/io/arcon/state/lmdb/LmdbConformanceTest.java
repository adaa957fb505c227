package io.arcon.state.lmdb;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import java.nio.file.Path;

class LmdbConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(StateBackendConfig.of("lmdb", directory));
  }

  @Override
  protected String engine() {
    return "lmdb";
  }

  @Override
  protected boolean persistent() {
    return true;
  }
}
