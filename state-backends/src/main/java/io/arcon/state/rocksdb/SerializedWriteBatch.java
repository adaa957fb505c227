package io.arcon.state.rocksdb;

import java.util.Arrays;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.WriteBatch;

/**
 * The puts and deletes of one column family in RocksDB's serialized {@code WriteBatch} form, built
 * in the JVM and handed to RocksDB in one call ({@link WriteBatch#WriteBatch(byte[])}).
 *
 * <p>Why: {@link WriteBatch#put} is a JNI call per row, with its own copies of key and value; a
 * write-back of tens of thousands of rows spent as long in those calls as RocksDB spent inserting
 * them. The form is RocksDB's documented batch representation ({@code db/write_batch.cc}): a
 * fixed64 sequence (left 0, RocksDB assigns it), a fixed32 count (both little-endian), then per
 * record a type byte, the column family id as a varint32 unless it is the default family, and
 * varint32-length-prefixed key and value. {@code SerializedWriteBatchTest} checks it byte for byte
 * against batches RocksDB built itself.
 *
 * <p>Reused across write-backs; single-threaded, like the backend.
 */
final class SerializedWriteBatch {
  private static final int HEADER_BYTES = 12;
  private static final int COUNT_OFFSET = 8;
  private static final byte TYPE_DELETION = 0x0;
  private static final byte TYPE_VALUE = 0x1;
  private static final byte TYPE_COLUMN_FAMILY_DELETION = 0x4;
  private static final byte TYPE_COLUMN_FAMILY_VALUE = 0x5;

  /** The most a record adds beyond its key and value: type, family id and two lengths. */
  static final int RECORD_OVERHEAD_BYTES = 1 + 5 + 5 + 5;

  /** Above this, {@link #reset} gives back the buffer a large write-back grew. */
  private static final int KEPT_CAPACITY = 16 << 20;

  private byte[] buffer = new byte[4096];
  private int length;
  private int count;
  private int columnFamilyId;

  /** Starts an empty batch for {@code family}. */
  SerializedWriteBatch reset(ColumnFamilyHandle family) {
    if (buffer.length > KEPT_CAPACITY) {
      buffer = new byte[4096];
    }
    Arrays.fill(buffer, 0, HEADER_BYTES, (byte) 0);
    length = HEADER_BYTES;
    count = 0;
    columnFamilyId = family.getID();
    return this;
  }

  void put(byte[] key, byte[] value) {
    ensure(RECORD_OVERHEAD_BYTES + key.length + value.length);
    typeAndFamily(TYPE_VALUE, TYPE_COLUMN_FAMILY_VALUE);
    bytes(key);
    bytes(value);
    count++;
  }

  void delete(byte[] key) {
    ensure(RECORD_OVERHEAD_BYTES + key.length);
    typeAndFamily(TYPE_DELETION, TYPE_COLUMN_FAMILY_DELETION);
    bytes(key);
    count++;
  }

  int count() {
    return count;
  }

  /** The batch's length in RocksDB's form so far. */
  int sizeBytes() {
    return length;
  }

  /** The buffer's length: what the batch holds on the heap between write-backs. */
  int capacityBytes() {
    return buffer.length;
  }

  /** The batch in RocksDB's form, for {@link WriteBatch#WriteBatch(byte[])}. */
  byte[] contents() {
    buffer[COUNT_OFFSET] = (byte) count;
    buffer[COUNT_OFFSET + 1] = (byte) (count >>> 8);
    buffer[COUNT_OFFSET + 2] = (byte) (count >>> 16);
    buffer[COUNT_OFFSET + 3] = (byte) (count >>> 24);
    return Arrays.copyOf(buffer, length);
  }

  private void typeAndFamily(byte defaultFamilyType, byte familyType) {
    if (columnFamilyId == 0) {
      buffer[length++] = defaultFamilyType;
    } else {
      buffer[length++] = familyType;
      varint32(columnFamilyId);
    }
  }

  private void bytes(byte[] data) {
    varint32(data.length);
    System.arraycopy(data, 0, buffer, length, data.length);
    length += data.length;
  }

  private void varint32(int value) {
    while ((value & ~0x7F) != 0) {
      buffer[length++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buffer[length++] = (byte) value;
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }
}
