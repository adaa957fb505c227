package io.arcon.runner.operators.snapshot;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.util.SerializableUtils;

/**
 * Builds one snapshot file of an operator instance: a header naming the kind of state and its
 * format version, the values written, and a CRC32 of everything before it, so that {@link
 * SnapshotReader} refuses a truncated or altered file on its own (without relying on the epoch
 * manifest).
 *
 * <p>Values are buffered in memory and reach the disk only in {@link #writeTo}: a snapshot that
 * fails half way must not leave a file that looks complete.
 */
public final class SnapshotWriter {
  static final byte[] MAGIC = {'A', 'R', 'C', 'N', 'S', 'N', 'A', 'P'};

  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(buffer);

  /**
   * @param kind what the file holds (e.g. {@code "unbounded-read"}); the reader insists on the same
   *     kind, so a file from another operator is refused
   * @param formatVersion the layout version of the values that follow
   */
  public SnapshotWriter(String kind, int formatVersion) {
    try {
      out.write(MAGIC);
      out.writeUTF(kind);
      out.writeInt(formatVersion);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
  }

  public SnapshotWriter writeBoolean(boolean value) throws IOException {
    out.writeBoolean(value);
    return this;
  }

  public SnapshotWriter writeInt(int value) throws IOException {
    out.writeInt(value);
    return this;
  }

  public SnapshotWriter writeLong(long value) throws IOException {
    out.writeLong(value);
    return this;
  }

  /** A length-prefixed byte array. */
  public SnapshotWriter writeBytes(byte[] value) throws IOException {
    out.writeInt(value.length);
    out.write(value);
    return this;
  }

  /** {@code value} in Java serialization (Beam's {@link SerializableUtils}). */
  public SnapshotWriter writeSerialized(Serializable value) throws IOException {
    return writeBytes(SerializableUtils.serializeToByteArray(value));
  }

  /** {@code value} encoded with {@code coder}. */
  public <T> SnapshotWriter writeEncoded(Coder<T> coder, T value) throws IOException {
    return writeBytes(CoderUtils.encodeToByteArray(coder, value));
  }

  /** Writes the file (which must not exist yet) with its checksum and forces it to the disk. */
  public void writeTo(Path file) throws IOException {
    out.flush();
    byte[] body = buffer.toByteArray();
    CRC32 crc = new CRC32();
    crc.update(body);
    ByteBuffer trailer = ByteBuffer.allocate(Long.BYTES).putLong(crc.getValue()).flip();
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer content = ByteBuffer.wrap(body);
      while (content.hasRemaining()) {
        channel.write(content);
      }
      while (trailer.hasRemaining()) {
        channel.write(trailer);
      }
      channel.force(true);
    }
  }
}
