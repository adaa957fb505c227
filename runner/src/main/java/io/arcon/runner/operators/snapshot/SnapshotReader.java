package io.arcon.runner.operators.snapshot;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.util.SerializableUtils;

/**
 * Reads a file written by {@link SnapshotWriter}, in the order it was written. The whole file is
 * checked (header, kind, version, checksum) when it is opened; every later failure (a value that
 * does not decode, a count larger than the file) is reported as a {@link CorruptSnapshotException}
 * naming the file and the value.
 */
public final class SnapshotReader {
  private final Path file;
  private final byte[] body;
  private final DataInputStream in;

  private SnapshotReader(Path file, byte[] body, int headerLength) {
    this.file = file;
    this.body = body;
    this.in = new DataInputStream(new ByteArrayInputStream(body, headerLength, body.length));
  }

  /**
   * Opens {@code file} and checks it holds state of {@code kind} in {@code formatVersion}.
   *
   * @throws CorruptSnapshotException if it is missing, truncated, altered or of another kind or
   *     version
   */
  public static SnapshotReader open(Path file, String kind, int formatVersion) throws IOException {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CorruptSnapshotException(file, "the file is missing", e);
    }
    int magic = SnapshotWriter.MAGIC.length;
    if (content.length < magic + Long.BYTES
        || !Arrays.equals(content, 0, magic, SnapshotWriter.MAGIC, 0, magic)) {
      throw new CorruptSnapshotException(file, "it is not an Arcon snapshot file", null);
    }
    byte[] body = Arrays.copyOf(content, content.length - Long.BYTES);
    CRC32 crc = new CRC32();
    crc.update(body);
    long expected = 0;
    for (int i = body.length; i < content.length; i++) {
      expected = (expected << 8) | (content[i] & 0xff);
    }
    if (crc.getValue() != expected) {
      throw new CorruptSnapshotException(
          file, "its checksum does not match (truncated or altered)", null);
    }
    DataInputStream header = new DataInputStream(new ByteArrayInputStream(body));
    header.skipBytes(magic);
    String actualKind;
    int actualVersion;
    try {
      actualKind = header.readUTF();
      actualVersion = header.readInt();
    } catch (EOFException | UTFDataFormatException e) {
      throw new CorruptSnapshotException(file, "its header is incomplete", e);
    }
    if (!actualKind.equals(kind)) {
      throw new CorruptSnapshotException(
          file, "it holds '" + actualKind + "' state, not '" + kind + "'", null);
    }
    if (actualVersion != formatVersion) {
      throw new CorruptSnapshotException(
          file,
          "it was written in format version "
              + actualVersion
              + " of '"
              + kind
              + "', this runner reads version "
              + formatVersion,
          null);
    }
    return new SnapshotReader(file, body, body.length - header.available());
  }

  /** The file being read (for messages of callers that validate what they read). */
  public Path file() {
    return file;
  }

  public boolean readBoolean(String what) throws IOException {
    try {
      return in.readBoolean();
    } catch (EOFException e) {
      throw endsEarly(what, e);
    }
  }

  public int readInt(String what) throws IOException {
    try {
      return in.readInt();
    } catch (EOFException e) {
      throw endsEarly(what, e);
    }
  }

  public long readLong(String what) throws IOException {
    try {
      return in.readLong();
    } catch (EOFException e) {
      throw endsEarly(what, e);
    }
  }

  /**
   * A count of items that follow, each at least {@code minBytesPerItem} long; refused when the rest
   * of the file cannot hold that many (so a bad count cannot make the reader allocate wildly).
   */
  public int readCount(String what, int minBytesPerItem) throws IOException {
    int count = readInt(what);
    if (count < 0 || (long) count * Math.max(1, minBytesPerItem) > in.available()) {
      throw corrupt("the " + what + " (" + count + ") does not fit the rest of the file", null);
    }
    return count;
  }

  /** A byte array written by {@link SnapshotWriter#writeBytes}. */
  public byte[] readBytes(String what) throws IOException {
    int length = readInt(what + " length");
    if (length < 0 || length > in.available()) {
      throw corrupt(
          "the " + what + " claims " + length + " bytes, " + in.available() + " remain", null);
    }
    byte[] value = new byte[length];
    in.readFully(value);
    return value;
  }

  /** An object written by {@link SnapshotWriter#writeSerialized}, checked to be a {@code type}. */
  public <T> T readSerialized(Class<T> type, String what) throws IOException {
    byte[] bytes = readBytes(what);
    Object value;
    try {
      value = SerializableUtils.deserializeFromByteArray(bytes, what);
    } catch (RuntimeException e) {
      throw corrupt("the " + what + " cannot be deserialized (" + e.getMessage() + ")", e);
    }
    if (!type.isInstance(value)) {
      throw corrupt(
          "the " + what + " is a " + value.getClass().getName() + ", not a " + type.getName(),
          null);
    }
    return type.cast(value);
  }

  /** A value written by {@link SnapshotWriter#writeEncoded} with the same coder. */
  public <T> T readEncoded(Coder<T> coder, String what) throws IOException {
    byte[] bytes = readBytes(what);
    try {
      return CoderUtils.decodeFromByteArray(coder, bytes);
    } catch (IOException | RuntimeException e) {
      throw corrupt(
          "the " + what + " cannot be decoded with " + coder + " (" + e.getMessage() + ")", e);
    }
  }

  /** Checks that everything written was read: trailing bytes mean a reader/writer mismatch. */
  public void expectEnd() throws IOException {
    if (in.available() > 0) {
      throw corrupt(in.available() + " unexpected bytes follow the last value", null);
    }
  }

  /** A failure in what was read, for callers that validate the values themselves. */
  public CorruptSnapshotException corrupt(String problem, Throwable cause) {
    return new CorruptSnapshotException(file, problem, cause);
  }

  private CorruptSnapshotException endsEarly(String what, EOFException e) {
    return corrupt("it ends before the " + what + " (" + body.length + " bytes)", e);
  }
}
