package io.arcon.state.rocksdb;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.Map;

/**
 * The conformance suite with a row cache of 2 KiB per table, not allowed to grow: it fills after a
 * few dozen rows, so write-backs and forgetting the cached rows happen in the middle of every
 * test's operations (the default 8 MiB would hold all of most tests' rows).
 */
class RocksDbSmallRowCacheConformanceTest extends RocksDbConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(
        new StateBackendConfig(
            "rocksdb",
            directory,
            Map.of(
                RocksDbOptions.ROW_CACHE_BYTES,
                "2048",
                RocksDbOptions.ROW_CACHE_MAX_BYTES,
                "2048")));
  }
}
