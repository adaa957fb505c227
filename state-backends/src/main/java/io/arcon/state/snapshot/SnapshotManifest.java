package io.arcon.state.snapshot;

import io.arcon.state.CorruptSnapshotException;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackendException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The manifest that makes a snapshot directory trustworthy: the engine, the epoch, and for every
 * file its relative path, size and CRC32C, followed by a CRC32C of the manifest text itself.
 *
 * <p>It is written last, to a temporary name and then atomically renamed, after every data file has
 * been fsynced; so a directory with a valid manifest is a complete snapshot and anything else (a
 * crash mid-write, a lost or cut file, a flipped bit) is detected by {@link #verify}.
 *
 * <p>Format (UTF-8 text, tab separated, paths last so they may contain spaces):
 *
 * <pre>
 * arcon-snapshot-manifest	1
 * engine	rocksdb
 * epoch	42
 * file	SIZE	CRC32C_HEX	relative/path
 * ...
 * manifest-crc32c	CRC32C_HEX_OF_ALL_PRECEDING_BYTES
 * </pre>
 */
public final class SnapshotManifest {
  /** The manifest's file name inside a snapshot directory. */
  public static final String FILE_NAME = "MANIFEST.arcon";

  private static final String MAGIC = "arcon-snapshot-manifest\t1";
  private static final String TEMP_NAME = FILE_NAME + ".tmp";
  private static final HexFormat HEX = HexFormat.of();

  /** One file of a snapshot as recorded in its manifest. */
  public record Entry(String path, long size, long crc32c) {}

  private final String engine;
  private final long epoch;
  private final List<Entry> files;

  private SnapshotManifest(String engine, long epoch, List<Entry> files) {
    this.engine = engine;
    this.epoch = epoch;
    this.files = List.copyOf(files);
  }

  public String engine() {
    return engine;
  }

  public long epoch() {
    return epoch;
  }

  /** The files the snapshot consists of (not the manifest itself). */
  public List<Entry> files() {
    return files;
  }

  /**
   * Fsyncs every file under {@code directory}, records them in a manifest and publishes it
   * atomically. Call after the engine has written all of its snapshot files.
   */
  public static SnapshotHandle write(String engine, long epoch, Path directory) {
    try {
      List<Entry> entries = new ArrayList<>();
      List<Path> files;
      try (Stream<Path> walk = Files.walk(directory)) {
        files = walk.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path file : files) {
        String relative = directory.relativize(file).toString().replace('\\', '/');
        if (relative.equals(FILE_NAME) || relative.equals(TEMP_NAME)) {
          continue;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
          channel.force(true);
        }
        entries.add(new Entry(relative, Files.size(file), crc32c(file)));
      }
      StringBuilder text = new StringBuilder();
      text.append(MAGIC).append('\n');
      text.append("engine\t").append(engine).append('\n');
      text.append("epoch\t").append(epoch).append('\n');
      for (Entry e : entries) {
        text.append("file\t")
            .append(e.size())
            .append('\t')
            .append(HEX.toHexDigits((int) e.crc32c()))
            .append('\t')
            .append(e.path())
            .append('\n');
      }
      CRC32C own = new CRC32C();
      own.update(text.toString().getBytes(StandardCharsets.UTF_8));
      text.append("manifest-crc32c\t").append(HEX.toHexDigits((int) own.getValue())).append('\n');

      Path temp = directory.resolve(TEMP_NAME);
      try (FileChannel out =
          FileChannel.open(
              temp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        out.write(java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
        out.force(true);
      }
      Files.move(temp, directory.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
      FileTrees.fsyncDirectory(directory);
      return new SnapshotHandle(engine, epoch, directory);
    } catch (IOException e) {
      throw new StateBackendException(
          "Could not write the snapshot manifest in " + directory + ": " + e, e);
    }
  }

  /**
   * Reads and checks (its own checksum) the manifest in {@code directory} without checking the
   * files it lists: tells which engine and epoch a snapshot is, before choosing the backend that
   * restores it (whose {@link #verify} then checks every file).
   *
   * @throws CorruptSnapshotException naming the manifest when it is missing, cut or corrupt
   */
  public static SnapshotManifest read(Path directory) {
    Path manifestPath = directory.resolve(FILE_NAME);
    if (!Files.isDirectory(directory)) {
      throw new CorruptSnapshotException(
          "Snapshot directory " + directory + " does not exist: the snapshot is missing");
    }
    return parse(manifestPath, readManifestText(directory, manifestPath));
  }

  /**
   * Reads the manifest of {@code handle} and checks every file it lists (present, exact size,
   * CRC32C) and that it was written by {@code expectedEngine} for the handle's epoch.
   *
   * @throws CorruptSnapshotException naming the file and the problem
   * @throws IllegalArgumentException when the snapshot belongs to another engine
   */
  public static SnapshotManifest verify(SnapshotHandle handle, String expectedEngine) {
    if (handle == null || handle.directory() == null) {
      throw new IllegalArgumentException("Cannot restore: the snapshot handle has no directory");
    }
    Path directory = handle.directory();
    if (!Files.isDirectory(directory)) {
      throw new CorruptSnapshotException(
          "Snapshot directory " + directory + " does not exist: the snapshot is missing");
    }
    Path manifestPath = directory.resolve(FILE_NAME);
    String text = readManifestText(directory, manifestPath);
    SnapshotManifest manifest = parse(manifestPath, text);
    if (!manifest.engine.equals(expectedEngine) || !expectedEngine.equals(handle.engine())) {
      throw new IllegalArgumentException(
          "Snapshot "
              + directory
              + " was written by the '"
              + manifest.engine
              + "' engine (handle says '"
              + handle.engine()
              + "'); it can only be restored into a '"
              + manifest.engine
              + "' backend, not '"
              + expectedEngine
              + "'");
    }
    if (manifest.epoch != handle.epoch()) {
      throw new CorruptSnapshotException(
          manifestPath
              + " records epoch "
              + manifest.epoch
              + " but the handle asks for epoch "
              + handle.epoch()
              + ": the directory holds a different snapshot");
    }
    for (Entry entry : manifest.files) {
      Path file = directory.resolve(entry.path());
      if (!Files.isRegularFile(file)) {
        throw new CorruptSnapshotException(
            "Snapshot file " + file + " is missing (listed in " + FILE_NAME + ")", file);
      }
      try {
        long size = Files.size(file);
        if (size != entry.size()) {
          throw new CorruptSnapshotException(
              "Snapshot file "
                  + file
                  + " is truncated or altered: "
                  + size
                  + " bytes, "
                  + FILE_NAME
                  + " records "
                  + entry.size(),
              file);
        }
        long crc = crc32c(file);
        if (crc != entry.crc32c()) {
          throw new CorruptSnapshotException(
              "Snapshot file "
                  + file
                  + " fails its CRC32C checksum (is "
                  + HEX.toHexDigits((int) crc)
                  + ", "
                  + FILE_NAME
                  + " records "
                  + HEX.toHexDigits((int) entry.crc32c())
                  + "): the file is corrupt",
              file);
        }
      } catch (IOException e) {
        throw new CorruptSnapshotException("Cannot read snapshot file " + file + ": " + e, e);
      }
    }
    return manifest;
  }

  private static String readManifestText(Path directory, Path manifestPath) {
    try {
      return Files.readString(manifestPath, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CorruptSnapshotException(
          "Snapshot "
              + directory
              + " has no "
              + FILE_NAME
              + ": it is incomplete (the writer did not finish) and cannot be restored");
    } catch (IOException e) {
      throw new CorruptSnapshotException(
          "Cannot read " + manifestPath + " (" + e + "): the snapshot cannot be restored", e);
    }
  }

  private static SnapshotManifest parse(Path manifestPath, String text) {
    int crcLineStart = text.lastIndexOf("manifest-crc32c\t");
    if (!text.startsWith(MAGIC + "\n") || crcLineStart < 0 || !text.endsWith("\n")) {
      throw new CorruptSnapshotException(
          manifestPath + " is not a complete Arcon snapshot manifest (truncated or foreign file)");
    }
    CRC32C own = new CRC32C();
    own.update(text.substring(0, crcLineStart).getBytes(StandardCharsets.UTF_8));
    String recorded = text.substring(crcLineStart + "manifest-crc32c\t".length()).trim();
    if (!recorded.equals(HEX.toHexDigits((int) own.getValue()))) {
      throw new CorruptSnapshotException(
          manifestPath + " fails its own CRC32C checksum: the manifest is corrupt");
    }
    String engine = null;
    Long epoch = null;
    List<Entry> entries = new ArrayList<>();
    String[] lines = text.substring(0, crcLineStart).split("\n");
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split("\t", 4);
      try {
        switch (f[0]) {
          case "engine" -> engine = f[1];
          case "epoch" -> epoch = Long.parseLong(f[1]);
          case "file" ->
              entries.add(
                  new Entry(
                      f[3],
                      Long.parseLong(f[1]),
                      Integer.toUnsignedLong(HexFormat.fromHexDigits(f[2]))));
          default -> throw new IllegalArgumentException("unknown record '" + f[0] + "'");
        }
      } catch (RuntimeException e) {
        throw new CorruptSnapshotException(
            manifestPath + " line " + (i + 1) + " is malformed: " + e.getMessage(), e);
      }
    }
    if (engine == null || epoch == null) {
      throw new CorruptSnapshotException(manifestPath + " lacks its engine or epoch record");
    }
    return new SnapshotManifest(engine, epoch, entries);
  }

  private static long crc32c(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }
}
