package io.arcon.state.lmdb;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.Map;

/**
 * The whole contract again with a 1 MiB initial map and small write batches, so map growth, replay
 * of pending writes and batch commits happen in the middle of every operation kind.
 */
class LmdbSmallMapConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(
        new StateBackendConfig(
            "lmdb", directory, Map.of("lmdb.mapSizeBytes", "1048576", "lmdb.writeBatchOps", "97")));
  }

  @Override
  protected String engine() {
    return "lmdb";
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  /** Covered by {@link LmdbConformanceTest}; a million keys again only costs time here. */
  @Override
  protected void aMillionKeys() {}
}
