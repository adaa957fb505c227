package io.arcon.tss.server;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.write.DuckDbTransform;
import io.arcon.tss.write.HadoopFs;
import io.arcon.tss.write.OutputMetadata;
import io.arcon.tss.write.ParquetVersionReader;
import io.arcon.tss.write.ParquetVersionWriter;
import io.arcon.tss.write.VersionDiff;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file work of the control plane on the lake: the definition file at CREATE, finishing a
 * version once every app sealed it ({@link #prepare}: DIFF and TRANSFORM; {@link #markCommitted}:
 * {@code _COMMITTED} last; {@link #dropOlderFullRows}), and DROP.
 *
 * <p>DIFF: the agents always write a version's full rows. At commit each state's full file is moved
 * to {@code <tss>/_full/version=<T>/...} and replaced in the version by the changes against the
 * full rows of the previous committed version (the first version: every row as {@code insert}).
 * Only the last committed version's {@code _full} rows are kept. TRANSFORM runs over the full rows,
 * also for a DIFF TSS.
 *
 * <p>Every step can be repeated: if the control plane dies mid-commit it redoes the commit after
 * restart (the full rows already staged are used as they are).
 *
 * <p>Not final so that a test can hold a commit at {@link #prepare} and act while it runs.
 */
class VersionCommitter {
  private final LakeLayout lake;
  private final Configuration conf = HadoopFs.defaultConfiguration();
  private final ParquetVersionWriter writer = new ParquetVersionWriter();
  private final ParquetVersionReader reader = new ParquetVersionReader();

  VersionCommitter(LakeLayout lake) {
    this.lake = lake;
  }

  /**
   * Whether the lake already has files for this TSS name: left by a TSS whose catalog was lost,
   * they would show up as committed versions of the new one.
   */
  boolean lakeDirInUse(String tss) {
    try (FileSystem fs = fileSystem()) {
      Path dir = new Path(lake.tssDir(tss));
      return fs.exists(dir) && fs.listStatus(dir).length > 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at " + lake.tssDir(tss), e);
    }
  }

  /** {@code <tss>/_definition.json}: the definition in its protobuf JSON form. */
  void writeDefinition(TssSpec spec) {
    try {
      writeAtomically(
          lake.definitionFile(spec.name()), JsonFormat.printer().print(WireForms.definition(spec)));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot render the definition as JSON", e);
    }
  }

  /**
   * The long part of a commit: DIFF and TRANSFORM. Leaves the version invisible to readers (no
   * {@code _COMMITTED} yet), so a version that fails meanwhile is never seen as committed.
   *
   * @param diffBase the last committed version before this one, or null
   */
  void prepare(TssSpec spec, Instant version, Instant diffBase) throws IOException {
    String tss = spec.name();
    Map<String, String> fullRowFiles = new LinkedHashMap<>();
    try (FileSystem fs = fileSystem()) {
      for (TssSpec.ExtractedState ref : spec.states()) {
        String versionFile = lake.stateFile(tss, version, ref.app(), ref.state());
        String table = ref.table();
        if (!spec.diff()) {
          fullRowFiles.put(table, versionFile);
          continue;
        }
        String fullFile = lake.fullStateFile(tss, version, ref.app(), ref.state());
        if (!fs.exists(new Path(fullFile))) {
          fs.mkdirs(new Path(fullFile).getParent());
          if (!fs.rename(new Path(versionFile), new Path(fullFile))) {
            throw new IOException("cannot stage " + versionFile + " as " + fullFile);
          }
        }
        List<StateRow> previous =
            diffBase == null
                ? List.of()
                : reader.read(lake.fullStateFile(tss, diffBase, ref.app(), ref.state())).rows();
        ParquetVersionReader.VersionFile full = reader.read(fullFile);
        List<StateChange> changes = VersionDiff.compute(previous, full.rows());
        // The diff is the same state at the same version: it keeps the agent's labels.
        writer.writeDiff(
            versionFile, ref.schema(), changes, version, OutputMetadata.carried(full.metadata()));
        fullRowFiles.put(table, fullFile);
      }
      if (spec.transformSql() != null) {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        List<String> consistencies = new ArrayList<>();
        for (Map.Entry<String, String> input : fullRowFiles.entrySet()) {
          tables.put(input.getKey(), List.of(input.getValue()));
          consistencies.add(
              reader.readMetadata(input.getValue()).getOrDefault(OutputMetadata.CONSISTENCY, ""));
        }
        DuckDbTransform.run(
            spec.transformSql(),
            tables,
            lake.transformFile(tss, version),
            version,
            OutputMetadata.ofTransform(version, consistencies),
            conf);
      }
    }
  }

  /**
   * Writes {@code _COMMITTED}: from now on readers see the version. A small file, so the control
   * plane writes it under its lock, where no failure of the version can slip in between.
   *
   * @param apps each app's part, recorded in the marker
   */
  void markCommitted(TssSpec spec, Instant version, List<Version.AppProgress> apps) {
    Version marker = new Version(version, Version.Status.COMMITTED, apps, "", Instant.now(), null);
    try {
      writeAtomically(
          lake.committedMarker(spec.name(), version),
          JsonFormat.printer().print(WireForms.record(marker)));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot render the commit marker as JSON", e);
    }
  }

  /**
   * A DIFF TSS needs only the full rows of its last committed version ({@code keep}); the others,
   * including those of versions that failed after they were staged, go.
   */
  void dropOlderFullRows(TssSpec spec, Instant keep) throws IOException {
    if (!spec.diff()) {
      return;
    }
    try (FileSystem fs = fileSystem()) {
      Path full = new Path(lake.fullDir(spec.name()));
      if (!fs.exists(full)) {
        return;
      }
      String keepName = LakeLayout.versionDirName(keep);
      for (FileStatus status : fs.listStatus(full)) {
        if (status.isDirectory() && !status.getPath().getName().equals(keepName)) {
          fs.delete(status.getPath(), true);
        }
      }
    }
  }

  void deleteTss(String tss) {
    try (FileSystem fs = fileSystem()) {
      fs.delete(new Path(lake.tssDir(tss)), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + lake.tssDir(tss), e);
    }
  }

  /** Write to a hidden temporary name, then rename into place: the file appears complete or not. */
  private void writeAtomically(String file, String content) {
    Path target = new Path(file);
    Path temp = new Path(file + ".tmp-" + UUID.randomUUID());
    try (FileSystem fs = fileSystem()) {
      fs.mkdirs(target.getParent());
      try (OutputStream out = fs.create(temp, true)) {
        out.write(content.getBytes(StandardCharsets.UTF_8));
      }
      if (fs.exists(target)) {
        fs.delete(target, false);
      }
      if (!fs.rename(temp, target)) {
        fs.delete(temp, false);
        throw new IOException("cannot rename " + temp + " to " + target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private FileSystem fileSystem() {
    try {
      // A private instance: closing it must not close a cached one the writers share.
      return FileSystem.newInstance(new Path(lake.root()).toUri(), conf);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the lake file system at " + lake.root(), e);
    }
  }
}
