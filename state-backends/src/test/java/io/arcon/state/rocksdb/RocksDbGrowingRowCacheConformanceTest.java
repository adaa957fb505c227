package io.arcon.state.rocksdb;

import io.arcon.state.StateBackend;
import java.nio.file.Path;

/**
 * The conformance suite with a row cache that starts at 2 KiB per table and may grow to 64 KiB: its
 * budget doubles in the middle of the tests' operations, with dirty rows held across each raise,
 * before it reaches its ceiling and writes back and forgets as a fixed one does.
 */
class RocksDbGrowingRowCacheConformanceTest extends RocksDbConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return openWithRowCache(directory, 2048, 65536);
  }
}
