package io.arcon.state.rocksdb;

import io.arcon.state.StateBackend;
import java.nio.file.Path;

/**
 * The conformance suite with a row cache of 2 KiB per table, not allowed to grow: it fills after a
 * few dozen rows, so write-backs and forgetting the cached rows happen in the middle of every
 * test's operations (the default 8 MiB would hold all of most tests' rows).
 */
class RocksDbSmallRowCacheConformanceTest extends RocksDbConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return openWithRowCache(directory, 2048, 2048);
  }
}
