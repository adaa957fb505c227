package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SnapshotHandleTest {
  @Test
  void survivesJavaSerialization() throws Exception {
    SnapshotHandle handle = new SnapshotHandle("rocksdb", 12, Path.of("/tmp/ckpt/epoch-12/op-3"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(handle);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(handle, in.readObject());
    }
  }
}
