package io.arcon.state.rocksdb;

import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.state.KillChild;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import java.nio.file.Path;

class RocksDbConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(StateBackendConfig.of("rocksdb", directory));
  }

  @Override
  protected String engine() {
    return "rocksdb";
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  /**
   * Writes go without a WAL: after a kill, what was not flushed (and not pushed out by a full
   * memtable) is gone. The child's unflushed writes are far below one memtable.
   */
  @Override
  protected void assertUnflushedAfterKill(StateTable values) {
    for (int i = 0; i < KillChild.UNFLUSHED; i++) {
      assertNull(values.get(KillChild.key("unflushed", i)));
    }
  }
}
