package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateBackendsTest {
  @TempDir Path tmp;

  @Test
  void enginesAreListedInOrder() {
    assertEquals(List.of("heap", "rocksdb", "lmdb"), StateBackends.ENGINES);
  }

  @Test
  void unknownEngineIsRefusedWithTheValidNames() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StateBackends.open(StateBackendConfig.of("redis", tmp)));
    assertEquals(
        "Unknown state backend 'redis'. Valid engines: heap, rocksdb, lmdb", e.getMessage());
  }

  @Test
  void unknownOptionKeyIsRefusedWithTheValidKeys() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StateBackends.open(
                    new StateBackendConfig(
                        "heap", tmp, Map.of("rocksdb.blockCacheSize", "1048576"))));
    assertTrue(e.getMessage().contains("rocksdb.blockCacheSize"), e.getMessage());
    assertTrue(e.getMessage().contains("rocksdb.blockCacheBytes"), e.getMessage());
    assertTrue(e.getMessage().contains("lmdb.mapSizeBytes"), e.getMessage());
  }

  @Test
  void badOptionValuesAreRefusedNamingTheOption() {
    IllegalArgumentException notANumber =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StateBackends.open(
                    new StateBackendConfig(
                        "heap", tmp, Map.of("rocksdb.writeBufferBytes", "lots"))));
    assertTrue(notANumber.getMessage().contains("rocksdb.writeBufferBytes"));
    assertTrue(notANumber.getMessage().contains("'lots'"), notANumber.getMessage());

    IllegalArgumentException outOfRange =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StateBackends.open(
                    new StateBackendConfig("heap", tmp, Map.of("lmdb.maxTables", "0"))));
    assertTrue(outOfRange.getMessage().contains("lmdb.maxTables"), outOfRange.getMessage());
    assertTrue(outOfRange.getMessage().contains("got 0"), outOfRange.getMessage());
  }

  @Test
  void persistentEnginesNeedADirectory() {
    for (String engine : List.of("rocksdb", "lmdb")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> StateBackends.open(new StateBackendConfig(engine, null, Map.of())));
      assertTrue(e.getMessage().contains("directory"), e.getMessage());
    }
  }

  @Test
  void anotherEnginesKeysAreAcceptedSoOneOptionsMapServesAllTransforms() {
    try (StateBackend heap =
        StateBackends.open(
            new StateBackendConfig(
                "heap",
                null,
                Map.of("rocksdb.blockCacheBytes", "8388608", "lmdb.maxTables", "8")))) {
      assertEquals("heap", heap.engine());
    }
  }
}
