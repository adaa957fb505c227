package io.arcon.state.heap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One heap table in a snapshot file: magic, version, table name, entry count, then per entry the
 * key, a kind byte (plain value or framed list) and the value bytes, entries in no particular
 * order. Integrity is the manifest's job (CRC32C); this format only has to be unambiguous.
 */
final class HeapSnapshotFormat {
  static final String SUFFIX = ".heap";
  private static final int MAGIC = 0x41524348; // "ARCH"
  private static final int VERSION = 1;
  private static final byte KIND_VALUE = 0;
  private static final byte KIND_LIST = 1;

  record Table(String name, HeapIndex content) {}

  private HeapSnapshotFormat() {}

  static void write(HeapStateTable table, Path file) throws IOException {
    try (OutputStream raw = Files.newOutputStream(file);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeUTF(table.name());
      out.writeLong(table.size());
      table.forEachEntry(
          (key, value, list) -> {
            out.writeInt(key.length);
            out.write(key);
            if (list != null) {
              out.writeByte(KIND_LIST);
              out.writeInt(list.length());
              list.writeFramedTo(out);
            } else {
              out.writeByte(KIND_VALUE);
              out.writeInt(value.length);
              out.write(value);
            }
          });
    }
  }

  static Table read(Path file) throws IOException {
    long fileSize = Files.size(file);
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
      if (in.readInt() != MAGIC) {
        throw new IOException("not a heap table snapshot (bad magic number)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException("unsupported heap snapshot version " + version);
      }
      String name = in.readUTF();
      long count = in.readLong();
      HeapIndex content = new HeapIndex();
      for (long i = 0; i < count; i++) {
        byte[] key = readBytes(in, fileSize, "key");
        byte kind = in.readByte();
        byte[] value = readBytes(in, fileSize, "value");
        switch (kind) {
          case KIND_VALUE -> content.putValue(key, value);
          case KIND_LIST -> content.putList(key, FramedList.ofFramed(value));
          default -> throw new IOException("unknown entry kind " + kind + " at entry " + i);
        }
      }
      if (in.read() != -1) {
        throw new IOException("trailing bytes after " + count + " entries");
      }
      return new Table(name, content);
    } catch (EOFException e) {
      throw new IOException("file ends early (truncated)", e);
    }
  }

  private static byte[] readBytes(DataInputStream in, long fileSize, String what)
      throws IOException {
    int length = in.readInt();
    if (length < 0 || length > fileSize) {
      throw new IOException("impossible " + what + " length " + length);
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }
}
