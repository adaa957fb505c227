package io.arcon.runtime.checkpoint;

import io.arcon.runtime.checkpoint.CheckpointFiles.EpochDirectory;
import io.arcon.runtime.checkpoint.CheckpointFiles.OperatorFile;
import io.arcon.runtime.checkpoint.CheckpointLayout.VertexLayout;
import io.arcon.state.CorruptSnapshotException;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.snapshot.SnapshotManifest;
import io.arcon.tss.model.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A committed epoch whose files were verified (present, exact size, CRC32C) against its manifest:
 * the state a job resumes from. Obtained from {@link #load} (for {@code --restoreFrom}), {@link
 * CheckpointStore#latest} (restart in process) or {@link PendingCheckpoint#commit}.
 */
public final class CompletedCheckpoint {
  private static final Logger LOG = LoggerFactory.getLogger(CompletedCheckpoint.class);

  /** An operator of the checkpoint's layout: (vertex id, index in its chain). */
  record OperatorSlot(int vertexId, int operatorIndex) {}

  private static final String RESTORE_FROM_HELP =
      "--restoreFrom takes an epoch directory (epoch-NNNNNNNNNN), a job's checkpoint directory"
          + " (its latest complete epoch), or the --checkpointDir of the run to resume";

  private final Path directory;
  private final CheckpointMetadata metadata;
  private final long sizeBytes;
  private final int fileCount;
  private final Set<OperatorSlot> operatorsWithState;

  CompletedCheckpoint(
      Path directory,
      CheckpointMetadata metadata,
      long sizeBytes,
      int fileCount,
      Set<OperatorSlot> operatorsWithState) {
    this.directory = directory;
    this.metadata = metadata;
    this.sizeBytes = sizeBytes;
    this.fileCount = fileCount;
    this.operatorsWithState = Set.copyOf(operatorsWithState);
  }

  /**
   * Loads and verifies the checkpoint at {@code restoreFrom}: an epoch directory; a job's
   * checkpoint directory (its latest complete epoch); or a checkpoint directory holding exactly one
   * job directory.
   *
   * @throws CorruptCheckpointException when the checkpoint is incomplete or damaged, naming the
   *     file and an older epoch to restore instead
   * @throws IllegalArgumentException when the path is missing, is not an Arcon checkpoint, or is
   *     ambiguous
   */
  public static CompletedCheckpoint load(Path restoreFrom) {
    return load(restoreFrom, null);
  }

  /**
   * As {@link #load(Path)}; a checkpoint directory that holds several jobs' directories resumes the
   * one of {@code jobName} (its directory named as {@link CheckpointStore} names it), if any.
   */
  public static CompletedCheckpoint load(Path restoreFrom, String jobName) {
    Objects.requireNonNull(restoreFrom, "restoreFrom");
    Path path = restoreFrom.toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      throw new IllegalArgumentException(
          "Checkpoint " + path + " does not exist: " + RESTORE_FROM_HELP);
    }
    if (!Files.isDirectory(path)) {
      throw new IllegalArgumentException(
          "Checkpoint " + path + " is a file, not a checkpoint directory: " + RESTORE_FROM_HELP);
    }
    if (CheckpointFiles.epochOf(path).isPresent()
        || Files.exists(path.resolve(CheckpointFiles.MANIFEST))) {
      return loadEpoch(path);
    }
    if (CheckpointFiles.isJobDirectory(path)) {
      return latestIn(path).orElseThrow(() -> noCompleteEpoch(path));
    }
    List<Path> jobs = new ArrayList<>();
    try (Stream<Path> children = Files.list(path)) {
      children
          .filter(Files::isDirectory)
          .filter(CheckpointFiles::isJobDirectory)
          .sorted()
          .forEach(jobs::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + path + ": " + e, e);
    }
    if (jobs.size() == 1) {
      return latestIn(jobs.get(0)).orElseThrow(() -> noCompleteEpoch(jobs.get(0)));
    }
    if (jobs.size() > 1 && jobName != null) {
      Path own = path.resolve(Names.sanitize(jobName));
      if (jobs.contains(own)) {
        return latestIn(own).orElseThrow(() -> noCompleteEpoch(own));
      }
    }
    if (jobs.size() > 1) {
      StringBuilder names = new StringBuilder();
      for (Path job : jobs) {
        names.append(names.length() == 0 ? "" : ", ").append(job.getFileName());
      }
      throw new IllegalArgumentException(
          "Checkpoint directory "
              + path
              + " holds the checkpoints of several jobs ("
              + names
              + ")"
              + (jobName == null ? "" : ", none of them named after --jobName=" + jobName)
              + ": give the one to resume, e.g. --restoreFrom="
              + jobs.get(0));
    }
    throw new IllegalArgumentException(
        path
            + " is not an Arcon checkpoint (no epoch directories, no job directories): "
            + RESTORE_FROM_HELP);
  }

  /** The newest complete epoch of a job directory, verified; empty when none committed. */
  static Optional<CompletedCheckpoint> latestIn(Path jobDirectory) {
    List<EpochDirectory> complete = CheckpointFiles.completeEpochsNewestFirst(jobDirectory);
    if (complete.isEmpty()) {
      return Optional.empty();
    }
    EpochDirectory newest = complete.get(0);
    // Newer epochs without a manifest never committed (the run stopped while writing them): not
    // used, and said so, so that nobody takes the older epoch for the newest one unawares.
    for (EpochDirectory e : CheckpointFiles.epochs(jobDirectory)) {
      if (e.epoch() > newest.epoch() && !e.hasManifest()) {
        LOG.info(
            "{} is not used: it has no {} (the run stopped before epoch {} committed); resuming"
                + " from the newest complete epoch, {}",
            e.path(),
            CheckpointFiles.MANIFEST,
            e.epoch(),
            newest.epoch());
      }
    }
    return Optional.of(loadEpoch(newest.path()));
  }

  /** Loads one epoch directory, verifying the manifest and every file it lists. */
  static CompletedCheckpoint loadEpoch(Path directory) {
    return loadEpoch(directory, true);
  }

  /**
   * As {@link #loadEpoch(Path)}; with {@code advise} false a damaged epoch's message does not look
   * for an older epoch to restore instead (the advice itself verifies the older epochs this way).
   */
  private static CompletedCheckpoint loadEpoch(Path directory, boolean advise) {
    OptionalLong epochOfName = CheckpointFiles.epochOf(directory);
    Path manifestFile = directory.resolve(CheckpointFiles.MANIFEST);
    if (epochOfName.isEmpty()) {
      throw new IllegalArgumentException(
          directory
              + " is not an Arcon job checkpoint: an epoch directory is named epoch-<number>"
              + " (state backend snapshots are restored by their job, not with --restoreFrom)");
    }
    long epoch = epochOfName.getAsLong();
    if (!Files.isRegularFile(manifestFile)) {
      throw new CorruptCheckpointException(
          "Checkpoint "
              + directory
              + " is incomplete: it has no "
              + CheckpointFiles.MANIFEST
              + " (the run stopped before epoch "
              + epoch
              + " committed); "
              + advice(advise, directory, epoch, null));
    }
    SnapshotManifest manifest;
    try {
      manifest =
          SnapshotManifest.verify(
              new SnapshotHandle(CheckpointFiles.ENGINE, epoch, directory), CheckpointFiles.ENGINE);
    } catch (CorruptSnapshotException e) {
      throw new CorruptCheckpointException(
          "Checkpoint epoch "
              + epoch
              + " is damaged. "
              + e.getMessage()
              + "; "
              + advice(advise, directory, epoch, e.file()),
          e);
    } catch (IllegalArgumentException e) {
      // The manifest is valid but names another engine: a state backend's own snapshot.
      throw new IllegalArgumentException(
          directory + " is not an Arcon job checkpoint: " + e.getMessage(), e);
    }
    Path metadataFile = directory.resolve(CheckpointFiles.METADATA);
    boolean listed = false;
    long size = 0;
    List<String> files = new ArrayList<>();
    for (SnapshotManifest.Entry entry : manifest.files()) {
      size += entry.size();
      if (entry.path().equals(CheckpointFiles.METADATA)) {
        listed = true;
      } else {
        files.add(entry.path());
      }
    }
    if (!listed) {
      throw new CorruptCheckpointException(
          manifestFile
              + " does not list "
              + CheckpointFiles.METADATA
              + ": it is not a complete Arcon checkpoint; "
              + advice(advise, directory, epoch, null));
    }
    CheckpointMetadata metadata;
    try {
      metadata = CheckpointMetadata.read(metadataFile);
      if (metadata.epoch() != epoch) {
        throw new CorruptCheckpointException(
            metadataFile
                + " records epoch "
                + metadata.epoch()
                + " in the directory of epoch "
                + epoch);
      }
    } catch (CorruptCheckpointException e) {
      throw new CorruptCheckpointException(
          e.getMessage() + "; " + advice(advise, directory, epoch, null), e);
    }
    Set<OperatorSlot> withState = operatorsWithState(files, metadata.layout(), directory, true);
    for (OperatorSlot slot : withState) {
      VertexLayout v = metadata.layout().vertex(slot.vertexId()).orElseThrow();
      for (int i = 0; i < v.parallelism(); i++) {
        Path d =
            CheckpointFiles.operatorDirectory(directory, slot.vertexId(), i, slot.operatorIndex());
        if (!Files.isDirectory(d)) {
          throw new CorruptCheckpointException(
              "Checkpoint directory "
                  + d
                  + " of transform '"
                  + v.operators().get(slot.operatorIndex())
                  + "' instance "
                  + i
                  + " is missing; "
                  + advice(advise, directory, epoch, null));
        }
      }
    }
    long manifestSize;
    try {
      manifestSize = Files.size(manifestFile);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + manifestFile + ": " + e, e);
    }
    return new CompletedCheckpoint(
        directory, metadata, size + manifestSize, manifest.files().size() + 1, withState);
  }

  /**
   * The operators (of {@code layout}) that saved at least one file, from the epoch's files
   * ('/'-separated paths relative to the epoch directory, without the metadata and manifest).
   *
   * @param loading whether the files come from a stored manifest (a stray file is corruption) or
   *     from a commit (a stray file is the writer's bug)
   */
  static Set<OperatorSlot> operatorsWithState(
      List<String> files, CheckpointLayout layout, Path directory, boolean loading) {
    Set<OperatorSlot> slots = new HashSet<>();
    for (String file : files) {
      Optional<OperatorFile> owner = CheckpointFiles.operatorFileOf(file);
      Optional<VertexLayout> vertex = owner.flatMap(o -> layout.vertex(o.vertexId()));
      boolean inLayout =
          vertex.isPresent()
              && owner.get().instance() < vertex.get().parallelism()
              && owner.get().operatorIndex() < vertex.get().operators().size();
      if (!inLayout) {
        String problem =
            "Checkpoint file "
                + directory.resolve(file)
                + " belongs to no operator instance of the job graph recorded in "
                + CheckpointFiles.METADATA;
        if (loading) {
          throw new CorruptCheckpointException(problem + ": the checkpoint is not consistent");
        }
        throw new IllegalStateException(
            problem + ": write snapshots only into PendingCheckpoint.operatorDirectory()");
      }
      slots.add(new OperatorSlot(owner.get().vertexId(), owner.get().operatorIndex()));
    }
    return slots;
  }

  /** What to do instead of restoring a damaged epoch: the next older complete epoch, if any. */
  static String olderEpochAdvice(Path epochDirectory, long epoch) {
    return olderEpochAdvice(epochDirectory, epoch, null);
  }

  private static String advice(boolean advise, Path epochDirectory, long epoch, Path damagedFile) {
    return advise
        ? olderEpochAdvice(epochDirectory, epoch, damagedFile)
        : "epoch " + epoch + " cannot be restored";
  }

  /** Whether an older epoch passes the checks a restore makes (manifest, files, metadata). */
  private static boolean intact(Path epochDirectory) {
    try {
      loadEpoch(epochDirectory, false);
      return true;
    } catch (CorruptCheckpointException | CheckpointFormatException | UncheckedIOException e) {
      return false;
    }
  }

  /**
   * As {@link #olderEpochAdvice(Path, long)}, passing over the older epochs that hold the very same
   * {@code damagedFile} (null: not known): RocksDB's checkpoints hard-link its immutable SST files,
   * so the epochs that contain one share a single copy, and its damage is theirs too.
   */
  static String olderEpochAdvice(Path epochDirectory, long epoch, Path damagedFile) {
    Path job = epochDirectory.toAbsolutePath().getParent();
    List<Long> sharing = new ArrayList<>();
    List<Long> damaged = new ArrayList<>();
    try {
      for (EpochDirectory older : CheckpointFiles.completeEpochsNewestFirst(job)) {
        if (older.epoch() >= epoch) {
          continue;
        }
        if (sharesFile(epochDirectory, older.path(), damagedFile)) {
          sharing.add(older.epoch());
          continue;
        }
        if (!intact(older.path())) {
          damaged.add(older.epoch());
          continue;
        }
        return "restore from an older epoch: --restoreFrom="
            + older.path()
            + passedOver(sharing, damaged, " (", ")");
      }
    } catch (UncheckedIOException e) {
      return "restore from an older epoch of " + job + " if one is complete";
    }
    return (sharing.isEmpty() && damaged.isEmpty()
            ? "no older complete epoch is in " + job
            : "no older epoch of "
                + job
                + " can be restored"
                + passedOver(sharing, damaged, " (", ")"))
        + "; start the job without --restoreFrom (this checkpoint's state cannot be used)";
  }

  /** Why older epochs were passed over: the same damaged file, or damage of their own. */
  private static String passedOver(
      List<Long> sharing, List<Long> damaged, String before, String after) {
    List<String> reasons = new ArrayList<>();
    if (!sharing.isEmpty()) {
      reasons.add(sharedCopy(sharing));
    }
    if (!damaged.isEmpty()) {
      reasons.add(
          (damaged.size() == 1 ? "epoch " : "epochs ")
              + damaged.stream().map(String::valueOf).collect(Collectors.joining(", "))
              + (damaged.size() == 1 ? " is" : " are")
              + " damaged too");
    }
    return reasons.isEmpty() ? "" : before + String.join("; ", reasons) + after;
  }

  private static String sharedCopy(List<Long> epochs) {
    return (epochs.size() == 1 ? "epoch " : "epochs ")
        + epochs.stream().map(String::valueOf).collect(Collectors.joining(", "))
        + (epochs.size() == 1 ? " holds" : " hold")
        + " the same file: RocksDB's immutable SST files are hard-linked, not copied, into every"
        + " epoch that contains them";
  }

  /**
   * Whether {@code older} holds the same file (one inode) as {@code damagedFile} of {@code
   * epochDirectory}.
   */
  private static boolean sharesFile(Path epochDirectory, Path older, Path damagedFile) {
    if (damagedFile == null) {
      return false;
    }
    Path relative = epochDirectory.toAbsolutePath().relativize(damagedFile.toAbsolutePath());
    Path candidate = older.resolve(relative);
    try {
      return Files.exists(damagedFile)
          && Files.exists(candidate)
          && Files.isSameFile(damagedFile, candidate);
    } catch (IOException e) {
      return false;
    }
  }

  private static IllegalArgumentException noCompleteEpoch(Path jobDirectory) {
    return new IllegalArgumentException(
        "Job checkpoint directory "
            + jobDirectory
            + " holds no complete epoch (no epoch directory with "
            + CheckpointFiles.MANIFEST
            + "; the run stopped before its first checkpoint committed): start the job without"
            + " --restoreFrom");
  }

  /** The epoch (1, 2, ...). */
  public long epoch() {
    return metadata.epoch();
  }

  /** The epoch directory. */
  public Path directory() {
    return directory;
  }

  /** Bytes of all files of the epoch, metadata and manifest included. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** Number of files of the epoch, metadata and manifest included. */
  public int fileCount() {
    return fileCount;
  }

  public CheckpointLayout layout() {
    return metadata.layout();
  }

  /** The instances that had ended all their work before the epoch reached them. */
  public Set<InstanceId> finishedInstances() {
    return metadata.finishedInstances();
  }

  /** When the coordinator started the epoch (epoch milliseconds). */
  public long startedAtMillis() {
    return metadata.startedAtMillis();
  }

  /** When the epoch committed (epoch milliseconds). */
  public long committedAtMillis() {
    return metadata.committedAtMillis();
  }

  /** Whether operator {@code operatorIndex} of vertex {@code vertexId} saved any file. */
  boolean hasState(int vertexId, int operatorIndex) {
    return operatorsWithState.contains(new OperatorSlot(vertexId, operatorIndex));
  }

  /** The directory instance {@code instance} of an operator of the layout wrote into. */
  Path operatorDirectory(int vertexId, int instance, int operatorIndex) {
    return CheckpointFiles.operatorDirectory(directory, vertexId, instance, operatorIndex);
  }

  /** The names of the transforms that saved state, for logs. */
  public List<String> transformsWithState() {
    List<String> names = new ArrayList<>();
    for (VertexLayout v : metadata.layout().vertices()) {
      for (int i = 0; i < v.operators().size(); i++) {
        if (hasState(v.id(), i)) {
          names.add(v.operators().get(i));
        }
      }
    }
    return names;
  }

  @Override
  public String toString() {
    return "checkpoint epoch "
        + epoch()
        + " of job '"
        + layout().jobName()
        + "' at "
        + directory
        + " ("
        + fileCount
        + " files, "
        + sizeBytes
        + " bytes)";
  }
}
