package io.arcon.runtime.checkpoint;

import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The on-disk layout of checkpoints:
 *
 * <pre>
 * checkpointDir/
 *   jobName/                                   (sanitized)
 *     LOCK                                     held by the live run
 *     epoch-0000000042/
 *       vertex-3/instance-1/operator-0/...     what the operator instance saved
 *       checkpoint.properties                  layout, finished instances, times
 *       MANIFEST.arcon                         written last: sizes and CRC32C of all files
 * </pre>
 *
 * The manifest is the state engines' {@link SnapshotManifest} with engine {@value #ENGINE}, so a
 * checkpoint and a backend snapshot are verified by the same code.
 */
final class CheckpointFiles {
  /** The manifest's engine field for job checkpoints (backend snapshots name their engine). */
  static final String ENGINE = "arcon-checkpoint";

  static final String MANIFEST = SnapshotManifest.FILE_NAME;
  static final String METADATA = "checkpoint.properties";
  static final String LOCK = "LOCK";

  private static final Pattern EPOCH = Pattern.compile("epoch-(\\d{1,19})");
  private static final Pattern OPERATOR_FILE =
      Pattern.compile("vertex-(\\d{1,9})/instance-(\\d{1,9})/operator-(\\d{1,9})/.+");

  /** An epoch directory of a job directory. */
  record EpochDirectory(long epoch, Path path) {
    boolean hasManifest() {
      return Files.isRegularFile(path.resolve(MANIFEST));
    }
  }

  /** Where a checkpoint file sits: which operator instance wrote it. */
  record OperatorFile(int vertexId, int instance, int operatorIndex) {}

  private CheckpointFiles() {}

  static String epochDirectoryName(long epoch) {
    return String.format("epoch-%010d", epoch);
  }

  /** The epoch a directory named {@code epoch-N} holds. */
  static OptionalLong epochOf(Path directory) {
    Path name = directory.getFileName();
    Matcher m = name == null ? null : EPOCH.matcher(name.toString());
    if (m == null || !m.matches()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(m.group(1)));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  static Path operatorDirectory(Path epochDirectory, int vertexId, int instance, int operator) {
    return epochDirectory
        .resolve("vertex-" + vertexId)
        .resolve("instance-" + instance)
        .resolve("operator-" + operator);
  }

  /** The operator instance that owns {@code relativePath} ('/'-separated), if any. */
  static Optional<OperatorFile> operatorFileOf(String relativePath) {
    Matcher m = OPERATOR_FILE.matcher(relativePath);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new OperatorFile(
            Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))));
  }

  /** The epoch directories of a job directory, oldest first; complete or not. */
  static List<EpochDirectory> epochs(Path jobDirectory) {
    List<EpochDirectory> epochs = new ArrayList<>();
    try (Stream<Path> children = Files.list(jobDirectory)) {
      children
          .filter(Files::isDirectory)
          .forEach(p -> epochOf(p).ifPresent(e -> epochs.add(new EpochDirectory(e, p))));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list checkpoint directory " + jobDirectory, e);
    }
    epochs.sort(Comparator.comparingLong(EpochDirectory::epoch));
    return epochs;
  }

  /** The complete epochs (with a manifest) of a job directory, newest first. */
  static List<EpochDirectory> completeEpochsNewestFirst(Path jobDirectory) {
    List<EpochDirectory> complete = new ArrayList<>();
    for (EpochDirectory e : epochs(jobDirectory)) {
      if (e.hasManifest()) {
        complete.add(0, e);
      }
    }
    return complete;
  }

  /** Whether {@code directory} looks like a job's checkpoint directory. */
  static boolean isJobDirectory(Path directory) {
    return Files.isRegularFile(directory.resolve(LOCK)) || !epochs(directory).isEmpty();
  }
}
