package io.arcon.state.heap;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import java.nio.file.Path;

class HeapConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(StateBackendConfig.of("heap", directory));
  }

  @Override
  protected String engine() {
    return "heap";
  }

  @Override
  protected boolean persistent() {
    return false;
  }
}
