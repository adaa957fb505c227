package io.arcon.tss.write;

import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;

/**
 * Writes the rows of one state at one version as a Parquet file (schema: {@link
 * ParquetSchemas#fileSchema}).
 *
 * <p>The target is a Hadoop path string: a plain local path, {@code file:///...}, or any Hadoop
 * file system whose connector is on the class path ({@code s3a://bucket/lake/...}). The file is
 * written under a hidden temporary name ({@code .<name>.inprogress-<uuid>}, which Hadoop and DuckDB
 * globs for {@code *.parquet} skip) in the target directory and renamed into place when complete,
 * so a reader never sees half a file. An existing file at the target is replaced: a version is
 * rewritten only before it is committed, and the rewrite must win.
 *
 * <p>Compression is ZSTD by default: Parquet's codec for it is zstd-jni, which carries its own
 * native library and needs no Hadoop native code.
 *
 * <p>The writer does not check that {@code updated_at} is before the version time: a {@code
 * watermark_cut} version may legitimately hold later updates; exact versions are cut by the app.
 */
public final class ParquetVersionWriter {
  private final Configuration conf;
  private final CompressionCodecName codec;

  /** Local-friendly Hadoop configuration ({@link HadoopFs#defaultConfiguration()}), ZSTD. */
  public ParquetVersionWriter() {
    this(HadoopFs.defaultConfiguration(), CompressionCodecName.ZSTD);
  }

  public ParquetVersionWriter(Configuration conf, CompressionCodecName codec) {
    this.conf = Objects.requireNonNull(conf, "conf");
    this.codec = Objects.requireNonNull(codec, "codec");
  }

  /**
   * Writes a full version: every row of the state at {@code version}. An empty {@code rows} still
   * produces a (row-less) file, so the version's schema is always on disk.
   *
   * @param file the target file, e.g. {@code <lake>/<tss>/version=<T>/<app>/<state>/part-0.parquet}
   *     ({@link io.arcon.tss.lake.LakeLayout})
   */
  public PartFile writeVersion(
      String file, StateSchema schema, Iterable<StateRow> rows, Instant version) {
    return writeVersion(file, schema, rows, version, Map.of());
  }

  /**
   * {@link #writeVersion(String, StateSchema, Iterable, Instant)} with extra key-value metadata in
   * the footer (see {@link OutputMetadata}).
   */
  public PartFile writeVersion(
      String file,
      StateSchema schema,
      Iterable<StateRow> rows,
      Instant version,
      Map<String, String> metadata) {
    Objects.requireNonNull(rows, "rows");
    return write(
        file,
        schema,
        version,
        false,
        metadata,
        () ->
            new java.util.Iterator<StateChange>() {
              final java.util.Iterator<StateRow> it = rows.iterator();

              @Override
              public boolean hasNext() {
                return it.hasNext();
              }

              @Override
              public StateChange next() {
                return new StateChange(ChangeOp.INSERT, it.next());
              }
            });
  }

  /**
   * Writes a DIFF version: only the changes since the previous version, with an {@code op} column.
   * Deletes are tombstones (value null).
   */
  public PartFile writeDiff(
      String file, StateSchema schema, Iterable<StateChange> changes, Instant version) {
    return writeDiff(file, schema, changes, version, Map.of());
  }

  /** {@link #writeDiff(String, StateSchema, Iterable, Instant)} with extra footer metadata. */
  public PartFile writeDiff(
      String file,
      StateSchema schema,
      Iterable<StateChange> changes,
      Instant version,
      Map<String, String> metadata) {
    Objects.requireNonNull(changes, "changes");
    return write(file, schema, version, true, metadata, changes);
  }

  private PartFile write(
      String file,
      StateSchema schema,
      Instant version,
      boolean diff,
      Map<String, String> metadata,
      Iterable<StateChange> rows) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(metadata, "metadata");
    Path target = new Path(file);
    FileSystem fs = HadoopFs.fileSystem(target, conf);
    target = fs.makeQualified(target);
    Path temp =
        new Path(target.getParent(), "." + target.getName() + ".inprogress-" + UUID.randomUUID());
    long count = 0;
    try {
      try (ParquetWriter<StateChange> writer =
          new Builder(HadoopOutputFile.fromPath(temp, conf), schema, diff, version, metadata)
              .withConf(conf)
              .withCompressionCodec(codec)
              .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
              .build()) {
        for (StateChange row : rows) {
          writer.write(row);
          count++;
        }
      }
      if (fs.exists(target) && !fs.delete(target, false)) {
        throw new IOException("Cannot replace existing file " + target);
      }
      if (!fs.rename(temp, target)) {
        throw new IOException("Cannot rename " + temp + " to " + target);
      }
      return new PartFile(target.toString(), count);
    } catch (IOException e) {
      deleteQuietly(fs, temp);
      throw new UncheckedIOException(
          "Writing Parquet file " + target + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      deleteQuietly(fs, temp);
      if (e instanceof IllegalArgumentException) {
        throw new IllegalArgumentException(
            "Row " + count + " of " + target + " does not fit the state schema: " + e.getMessage(),
            e);
      }
      throw e;
    }
  }

  private static void deleteQuietly(FileSystem fs, Path temp) {
    try {
      fs.delete(temp, false);
    } catch (IOException | RuntimeException ignored) {
      // Best effort: the hidden temp name keeps a leftover out of every reader's view.
    }
  }

  private static final class Builder extends ParquetWriter.Builder<StateChange, Builder> {
    private final StateSchema schema;
    private final boolean diff;
    private final Instant version;
    private final Map<String, String> metadata;

    Builder(
        OutputFile file,
        StateSchema schema,
        boolean diff,
        Instant version,
        Map<String, String> metadata) {
      super(file);
      this.schema = schema;
      this.diff = diff;
      this.version = version;
      this.metadata = metadata;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<StateChange> getWriteSupport(Configuration conf) {
      return new StateRowWriteSupport(schema, diff, version, metadata);
    }
  }
}
