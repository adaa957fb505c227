package io.arcon.state.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.state.nativelib.NativeLibraries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

class SerializedWriteBatchTest {
  static {
    NativeLibraries.loadRocksDb();
  }

  @Test
  void sameBytesAsRocksDbsOwnBatchesAndAppliesThem(@TempDir Path dir) throws Exception {
    List<ColumnFamilyDescriptor> descriptors =
        List.of(
            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
            new ColumnFamilyDescriptor("second".getBytes(StandardCharsets.UTF_8)));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options =
            new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles);
        WriteOptions write = new WriteOptions()) {
      Random random = new Random(5);
      SerializedWriteBatch serialized = new SerializedWriteBatch();
      for (ColumnFamilyHandle family : handles) {
        for (int round = 0; round < 3; round++) {
          serialized.reset(family);
          List<byte[]> keys = new ArrayList<>();
          List<byte[]> values = new ArrayList<>();
          try (WriteBatch reference = new WriteBatch()) {
            int rows = 1 + random.nextInt(500);
            for (int i = 0; i < rows; i++) {
              // Lengths across the varint32 boundaries (127/128, 16383/16384), empty values too.
              byte[] key = bytes(random, 1 + random.nextInt(i % 50 == 0 ? 20_000 : 200));
              if (random.nextInt(4) == 0) {
                reference.delete(family, key);
                serialized.delete(key);
                keys.add(key);
                values.add(null);
              } else {
                byte[] value = bytes(random, random.nextInt(i % 7 == 0 ? 300 : 20));
                reference.put(family, key, value);
                serialized.put(key, value);
                keys.add(key);
                values.add(value);
              }
            }
            assertEquals(rows, serialized.count());
            assertArrayEquals(reference.data(), serialized.contents());
          }
          try (WriteBatch batch = new WriteBatch(serialized.contents())) {
            db.write(write, batch);
          }
          for (int i = 0; i < keys.size(); i++) {
            if (keys.lastIndexOf(keys.get(i)) != i) {
              continue; // a later row of the batch has the same key
            }
            byte[] stored = db.get(family, keys.get(i));
            if (values.get(i) == null) {
              assertNull(stored);
            } else {
              assertArrayEquals(values.get(i), stored);
            }
          }
        }
      }
      for (ColumnFamilyHandle handle : handles) {
        handle.close();
      }
    }
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
