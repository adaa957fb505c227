package io.arcon.state.rocksdb;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.Map;

/**
 * The conformance suite with a row cache that starts at 2 KiB per table and may grow to 64 KiB: its
 * budget doubles in the middle of the tests' operations, with dirty rows held across each raise,
 * before it reaches its ceiling and writes back and forgets as a fixed one does.
 */
class RocksDbGrowingRowCacheConformanceTest extends RocksDbConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(
        new StateBackendConfig(
            "rocksdb",
            directory,
            Map.of(
                RocksDbOptions.ROW_CACHE_BYTES, "2048",
                RocksDbOptions.ROW_CACHE_MAX_BYTES, "65536")));
  }
}
