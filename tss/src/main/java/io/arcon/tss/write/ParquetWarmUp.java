package io.arcon.tss.write;

import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.AbstractList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Loads and compiles the Parquet write path of a JVM before its first TSS version is due, by
 * writing throw-away files: one empty file per state schema (the schema's column writers, the
 * codec, the footer) and {@value #ROWS} rows of a key-value counter (the per-row path, so that the
 * JIT compiles it). Without it, the first version a JVM writes spent most of its time loading
 * Parquet's and Hadoop's classes and running their code interpreted: 1M rows took 1.8 s on 2 cores,
 * the next versions 0.5 s.
 *
 * <p>Once per JVM ({@link #claim}); the caller runs it where extractions run, so an extraction due
 * meanwhile waits for it rather than competing with it.
 */
public final class ParquetWarmUp {
  /** Rows of the counter file: enough for the JIT's second tier to compile the per-row path. */
  static final int ROWS = 60_000;

  private static final AtomicBoolean CLAIMED = new AtomicBoolean();

  private ParquetWarmUp() {}

  /** True for the first caller in this JVM, which should then {@link #run} the warm-up. */
  public static boolean claim() {
    return CLAIMED.compareAndSet(false, true);
  }

  /**
   * Writes the warm-up files with {@code writer} in a new temporary folder and deletes them.
   *
   * @param schemas the schemas of the states the JVM's apps export
   * @return how many files were written
   */
  public static int run(ParquetVersionWriter writer, Collection<StateSchema> schemas) {
    return run(writer, schemas, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** {@link #run(ParquetVersionWriter, Collection)} in a new folder under {@code parent}. */
  static int run(ParquetVersionWriter writer, Collection<StateSchema> schemas, Path parent) {
    Path folder;
    try {
      folder = Files.createTempDirectory(parent, "arcon-parquet-warm-up");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create a folder for the Parquet warm-up in " + parent, e);
    }
    Instant version = Instant.now();
    int files = 0;
    try {
      for (StateSchema schema : new LinkedHashSet<>(schemas)) {
        writer.writeVersion(localFile(folder, "schema-" + files), schema, List.of(), version);
        files++;
      }
      StateSchema counter = new StateSchema(PrimitiveType.INT64, PrimitiveType.INT64);
      writer.writeVersion(localFile(folder, "rows"), counter, counterRows(version), version);
      return files + 1;
    } finally {
      deleteAll(folder);
    }
  }

  /**
   * A {@code file:} URI, so that a writer configured for another default file system stays local.
   */
  private static String localFile(Path folder, String name) {
    return folder.resolve(name + ".parquet").toUri().toString();
  }

  private static List<StateRow> counterRows(Instant version) {
    Instant updatedAt = version.minusMillis(1);
    return new AbstractList<>() {
      @Override
      public StateRow get(int index) {
        return new StateRow((long) index, null, (long) index * 7, updatedAt);
      }

      @Override
      public int size() {
        return ROWS;
      }
    };
  }

  private static void deleteAll(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(ParquetWarmUp::deleteQuietly);
    } catch (IOException | UncheckedIOException ignored) {
      // Best effort: a leftover in the temporary folder is harmless.
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // Best effort, as above.
    }
  }
}
