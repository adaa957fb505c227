package io.arcon.runner.faults;

import io.arcon.tss.model.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a job's checkpoint directory as the tests see it from outside the runner:
 * checkpointDir/sanitized job name/epoch-NNNNNNNNNN/, complete once MANIFEST.arcon exists.
 */
final class CheckpointDirs {
  static final String MANIFEST = "MANIFEST.arcon";
  private static final Pattern EPOCH = Pattern.compile("epoch-(\\d+)");

  private CheckpointDirs() {}

  /** The directory the runner keeps job {@code jobName}'s checkpoints in. */
  static Path jobDirectory(Path checkpointDir, String jobName) {
    return checkpointDir.resolve(Names.sanitize(jobName));
  }

  /** The complete epochs' directories, oldest first; empty when there is none (yet). */
  static List<Path> completeEpochs(Path jobDirectory) {
    List<Path> epochs = new ArrayList<>();
    if (!Files.isDirectory(jobDirectory)) {
      return epochs;
    }
    try (Stream<Path> children = Files.list(jobDirectory)) {
      children
          .filter(d -> EPOCH.matcher(d.getFileName().toString()).matches())
          .filter(d -> Files.isRegularFile(d.resolve(MANIFEST)))
          .sorted()
          .forEach(epochs::add);
    } catch (IOException e) {
      // An epoch deleted by retention while listing: the caller polls again.
      return epochs;
    }
    return epochs;
  }

  /** The newest complete epoch's number, 0 when none. */
  static long newestCompleteEpoch(Path jobDirectory) {
    List<Path> epochs = completeEpochs(jobDirectory);
    return epochs.isEmpty() ? 0 : epochOf(epochs.get(epochs.size() - 1));
  }

  static long epochOf(Path epochDirectory) {
    Matcher m = EPOCH.matcher(epochDirectory.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(epochDirectory + " is not an epoch directory");
    }
    return Long.parseLong(m.group(1));
  }

  /** Every regular file under {@code directory}, sorted. */
  static List<Path> files(Path directory) {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
  }
}
