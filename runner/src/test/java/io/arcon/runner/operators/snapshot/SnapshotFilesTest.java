package io.arcon.runner.operators.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotFilesTest {
  private static final KvCoder<String, Long> CODER =
      KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());

  @TempDir Path directory;

  private Path writeSample() throws Exception {
    Path file = directory.resolve("sample");
    new SnapshotWriter("sample", 3)
        .writeBoolean(true)
        .writeInt(-7)
        .writeLong(Long.MIN_VALUE)
        .writeBytes(new byte[] {1, 2, 3})
        .writeSerialized(new java.util.ArrayList<>(List.of("a", "b")))
        .writeEncoded(CODER, KV.of("key", 42L))
        .writeTo(file);
    return file;
  }

  @Test
  void valuesReadBackAsWritten() throws Exception {
    SnapshotReader in = SnapshotReader.open(writeSample(), "sample", 3);
    assertTrue(in.readBoolean("flag"));
    assertEquals(-7, in.readInt("int"));
    assertEquals(Long.MIN_VALUE, in.readLong("long"));
    assertArrayEquals(new byte[] {1, 2, 3}, in.readBytes("bytes"));
    assertEquals(List.of("a", "b"), in.readSerialized(List.class, "list"));
    assertEquals(KV.of("key", 42L), in.readEncoded(CODER, "kv"));
    in.expectEnd();
  }

  @Test
  void everyTruncationIsRefusedNamingTheFile() throws Exception {
    Path file = writeSample();
    byte[] content = Files.readAllBytes(file);
    for (int length = 0; length < content.length; length++) {
      Files.write(file, Arrays.copyOf(content, length));
      CorruptSnapshotException e =
          assertThrows(
              CorruptSnapshotException.class,
              () -> SnapshotReader.open(file, "sample", 3),
              "truncated to " + length);
      assertEquals(file, e.file());
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
  }

  @Test
  void everyFlippedBitIsRefused() throws Exception {
    Path file = writeSample();
    byte[] content = Files.readAllBytes(file);
    for (int bit = 0; bit < content.length * 8; bit++) {
      byte[] damaged = content.clone();
      damaged[bit / 8] ^= (byte) (1 << (bit % 8));
      Files.write(file, damaged);
      assertThrows(
          CorruptSnapshotException.class,
          () -> SnapshotReader.open(file, "sample", 3),
          "bit " + bit);
    }
  }

  @Test
  void anotherKindOrVersionIsRefused() throws Exception {
    Path file = writeSample();
    CorruptSnapshotException kind =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotReader.open(file, "other", 3));
    assertTrue(kind.getMessage().contains("holds 'sample' state, not 'other'"), kind.getMessage());
    CorruptSnapshotException version =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotReader.open(file, "sample", 4));
    assertTrue(version.getMessage().contains("format version 3"), version.getMessage());
  }

  @Test
  void readingPastTheValuesOrLeavingSomeIsRefused() throws Exception {
    Path file = directory.resolve("short");
    new SnapshotWriter("short", 1).writeInt(5).writeTo(file);
    SnapshotReader past = SnapshotReader.open(file, "short", 1);
    past.readInt("first");
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> past.readLong("second value"));
    assertTrue(e.getMessage().contains("second value"), e.getMessage());

    SnapshotReader count = SnapshotReader.open(file, "short", 1);
    assertThrows(CorruptSnapshotException.class, () -> count.readCount("items", 1));

    SnapshotReader left = SnapshotReader.open(file, "short", 1);
    assertThrows(CorruptSnapshotException.class, left::expectEnd);
  }

  @Test
  void aValueOfAnotherTypeOrCoderIsRefused() throws Exception {
    Path file = writeSample();
    SnapshotReader in = SnapshotReader.open(file, "sample", 3);
    in.readBoolean("flag");
    in.readInt("int");
    in.readLong("long");
    in.readBytes("bytes");
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class, () -> in.readSerialized(String.class, "the name"));
    assertTrue(e.getMessage().contains("the name is a java.util.ArrayList"), e.getMessage());
  }

  @Test
  void anExistingFileIsNotOverwritten() throws Exception {
    Path file = writeSample();
    assertThrows(
        java.nio.file.FileAlreadyExistsException.class,
        () -> new SnapshotWriter("sample", 3).writeInt(1).writeTo(file));
  }
}
