package io.arcon.state.rocksdb;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.Map;

/**
 * The conformance suite with the row cache off ({@code rocksdb.rowCacheBytes=0}): every read and
 * write goes to RocksDB, whose memtable then updates values in place.
 */
class RocksDbWithoutRowCacheConformanceTest extends RocksDbConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(
        new StateBackendConfig("rocksdb", directory, Map.of(RocksDbOptions.ROW_CACHE_BYTES, "0")));
  }
}
