package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StateBackendTuningTest {
  @Test
  void pairsBecomeTheOptionsMap() {
    assertEquals(
        Map.of("rocksdb.rowCacheBytes", "16777216", "lmdb.maxTables", "64"),
        StateBackendTuning.parse(" rocksdb.rowCacheBytes = 16777216 ,, lmdb.maxTables=64,"));
    assertEquals(Map.of(), StateBackendTuning.parse(null));
    assertEquals(Map.of(), StateBackendTuning.parse("  "));
  }

  @Test
  void aKeyGivenTwiceOrAPairWithoutValueIsRefused() {
    assertEquals(
        "--stateBackendOptions: 'rocksdb.rowCacheBytes' is given twice",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    StateBackendTuning.parse(
                        "rocksdb.rowCacheBytes=1024,rocksdb.rowCacheBytes=2048"))
            .getMessage());
    assertEquals(
        "--stateBackendOptions: 'lmdb.maxTables=' is not key=value. Give comma-separated pairs,"
            + " e.g. --stateBackendOptions=rocksdb.rowCacheBytes=16777216,"
            + "rocksdb.rowCacheMaxBytes=268435456",
        assertThrows(
                IllegalArgumentException.class, () -> StateBackendTuning.parse("lmdb.maxTables="))
            .getMessage());
  }

  @Test
  void aValueOutOfRangeIsRefusedWithItsKey() {
    String message =
        assertThrows(
                IllegalArgumentException.class, () -> StateBackendTuning.parse("lmdb.maxTables=0"))
            .getMessage();
    assertEquals(true, message.startsWith("--stateBackendOptions: "), message);
    assertEquals(true, message.contains("lmdb.maxTables"), message);
  }
}
