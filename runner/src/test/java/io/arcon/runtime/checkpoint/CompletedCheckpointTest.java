package io.arcon.runtime.checkpoint;

import static io.arcon.runtime.checkpoint.Checkpoints.graph;
import static io.arcon.runtime.checkpoint.Checkpoints.writeRandom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.checkpoint.Checkpoints.V;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Loading refuses every damaged, partial or foreign checkpoint, naming the file. */
class CompletedCheckpointTest {
  private static final String JOB = "sessions";

  @TempDir Path root;

  private Path checkpointDir;
  private Path jobDir;
  private Path epoch1;
  private Path epoch2;

  /** A state file of epoch 2. */
  private Path stateFile;

  @BeforeEach
  void twoCommittedEpochs() {
    checkpointDir = root.resolve("checkpoints");
    JobGraph g = graph(new V("Read", 1, "Read"), new V("Sessions", 2, "Sessions"));
    try (CheckpointStore store = CheckpointStore.open(checkpointDir, JOB, 5)) {
      jobDir = store.jobDirectory();
      for (long epoch = 1; epoch <= 2; epoch++) {
        PendingCheckpoint p = store.begin(epoch);
        writeRandom(p.operatorDirectory(0, 0, 0).resolve("position"), 16, epoch);
        stateFile = p.operatorDirectory(1, 1, 0).resolve("rocksdb/000012.sst");
        writeRandom(stateFile, 4096, 100 + epoch);
        p.commit(CheckpointLayout.of(JOB, g), Set.of(), 0);
      }
    }
    epoch1 = jobDir.resolve("epoch-0000000001");
    epoch2 = jobDir.resolve("epoch-0000000002");
    assertEquals(epoch2, stateFile.getParent().getParent().getParent().getParent().getParent());
  }

  @Test
  void aCheckpointDirectoryOfSeveralJobsResumesTheOneNamedByTheJobName() {
    JobGraph g = graph(new V("Read", 1, "Read"));
    try (CheckpointStore other = CheckpointStore.open(checkpointDir, "other-job", 5)) {
      PendingCheckpoint p = other.begin(7);
      writeRandom(p.operatorDirectory(0, 0, 0).resolve("position"), 16, 7);
      p.commit(CheckpointLayout.of("other-job", g), Set.of(), 0);
    }

    assertEquals(2, CompletedCheckpoint.load(checkpointDir, JOB).epoch());
    assertEquals(7, CompletedCheckpoint.load(checkpointDir, "other-job").epoch());
    IllegalArgumentException unnamed =
        assertThrows(IllegalArgumentException.class, () -> CompletedCheckpoint.load(checkpointDir));
    assertNames(unnamed, "holds the checkpoints of several jobs", "other_job", "--restoreFrom=");
    IllegalArgumentException stranger =
        assertThrows(
            IllegalArgumentException.class,
            () -> CompletedCheckpoint.load(checkpointDir, "stranger"));
    assertNames(stranger, "none of them named after --jobName=stranger");
  }

  @Test
  void aDamagedFileThatOlderEpochsHardLinkSendsPastThemOrSaysNoneIsWithoutIt() throws IOException {
    JobGraph g = graph(new V("Read", 1, "Read"), new V("Sessions", 2, "Sessions"));
    Path shared = null;
    Path job;
    try (CheckpointStore store = CheckpointStore.open(checkpointDir, "linked", 5)) {
      job = store.jobDirectory();
      for (long epoch = 1; epoch <= 4; epoch++) {
        PendingCheckpoint p = store.begin(epoch);
        writeRandom(p.operatorDirectory(0, 0, 0).resolve("position"), 16, epoch);
        Path sst = p.operatorDirectory(1, 1, 0).resolve("rocksdb/000012.sst");
        if (epoch == 1) {
          writeRandom(sst, 4096, 1); // epoch 1 has a file of its own
        } else if (epoch == 2) {
          writeRandom(sst, 4096, 2);
          shared = sst;
        } else {
          Files.createDirectories(sst.getParent());
          Files.createLink(sst, shared); // as RocksDB's checkpoints link an unchanged SST
        }
        p.commit(CheckpointLayout.of("linked", g), Set.of(), 0);
      }
    }
    Path epoch4 = job.resolve("epoch-0000000004");
    byte[] bytes = Files.readAllBytes(shared);
    bytes[100] ^= 0x01;
    Files.write(shared, bytes);

    CorruptCheckpointException e = refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch4));
    assertNames(
        e,
        "CRC32C",
        "--restoreFrom=" + job.resolve("epoch-0000000001"),
        "epochs 3, 2 hold the same file: RocksDB's immutable SST files are hard-linked");
    assertEquals(1, CompletedCheckpoint.load(job.resolve("epoch-0000000001")).epoch());

    // Without epoch 1, every older epoch shares the damaged file.
    FileTrees.deleteRecursively(job.resolve("epoch-0000000001"));
    assertNames(
        refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch4)),
        "no older epoch of " + job + " can be restored (epochs 3, 2 hold the same file");
  }

  @Test
  void theAdviceSkipsOlderEpochsThatAreDamagedToo() throws IOException {
    JobGraph g = graph(new V("Read", 1, "Read"));
    Path job;
    try (CheckpointStore store = CheckpointStore.open(checkpointDir, "damaged", 5)) {
      job = store.jobDirectory();
      for (long epoch = 1; epoch <= 3; epoch++) {
        PendingCheckpoint p = store.begin(epoch);
        writeRandom(p.operatorDirectory(0, 0, 0).resolve("position"), 16, epoch);
        p.commit(CheckpointLayout.of("damaged", g), Set.of(), 0);
      }
    }
    for (long epoch = 2; epoch <= 3; epoch++) {
      Path position =
          CheckpointFiles.operatorDirectory(job.resolve("epoch-000000000" + epoch), 0, 0, 0)
              .resolve("position");
      byte[] bytes = Files.readAllBytes(position);
      bytes[3] ^= 0x01;
      Files.write(position, bytes);
    }
    assertNames(
        refusedAsCorrupt(() -> CompletedCheckpoint.load(job.resolve("epoch-0000000003"))),
        "--restoreFrom=" + job.resolve("epoch-0000000001"),
        "epoch 2 is damaged too");

    byte[] bytes =
        Files.readAllBytes(
            CheckpointFiles.operatorDirectory(job.resolve("epoch-0000000001"), 0, 0, 0)
                .resolve("position"));
    bytes[3] ^= 0x01;
    Files.write(
        CheckpointFiles.operatorDirectory(job.resolve("epoch-0000000001"), 0, 0, 0)
            .resolve("position"),
        bytes);
    CorruptCheckpointException none =
        refusedAsCorrupt(() -> CompletedCheckpoint.load(job.resolve("epoch-0000000003")));
    assertNames(
        none,
        "no older epoch of " + job + " can be restored (epochs 2, 1 are damaged too)",
        "start the job without --restoreFrom");
    assertFalse(none.getMessage().contains("--restoreFrom=" + job), none.getMessage());
  }

  @Test
  void aFlippedByteIsRefusedNamingTheFileAndTheOlderEpoch() throws IOException {
    byte[] bytes = Files.readAllBytes(stateFile);
    bytes[1234] ^= 0x10;
    Files.write(stateFile, bytes);
    CorruptCheckpointException e = refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2));
    assertNames(e, stateFile.toString(), "CRC32C", "--restoreFrom=" + epoch1);
    // The job directory's latest epoch is the damaged one: refused too, never silently older.
    refusedAsCorrupt(() -> CompletedCheckpoint.load(jobDir));
    try (CheckpointStore store = CheckpointStore.open(checkpointDir, JOB, 5)) {
      refusedAsCorrupt(store::latest);
    }
    assertEquals(1, CompletedCheckpoint.load(epoch1).epoch());
  }

  @Test
  void aTruncatedFileIsRefusedNamingIt() throws IOException {
    try (FileChannel c = FileChannel.open(stateFile, StandardOpenOption.WRITE)) {
      c.truncate(4000);
    }
    assertNames(
        refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2)),
        stateFile.toString(),
        "truncated");
  }

  @Test
  void aMissingFileIsRefusedNamingIt() throws IOException {
    Files.delete(stateFile);
    assertNames(
        refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2)), stateFile.toString(), "missing");
  }

  @Test
  void aTruncatedManifestIsRefusedNamingIt() throws IOException {
    Path manifest = epoch2.resolve(SnapshotManifest.FILE_NAME);
    byte[] whole = Files.readAllBytes(manifest);
    // Cut inside the last line, at a line boundary before the checksum line, midway, at the magic.
    for (int cut : new int[] {whole.length - 1, whole.length - 25, whole.length / 2, 5}) {
      Files.write(manifest, java.util.Arrays.copyOf(whole, cut));
      assertNames(refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2)), manifest.toString());
    }
    Files.write(manifest, whole);
    assertEquals(2, CompletedCheckpoint.load(epoch2).epoch());
  }

  @Test
  void aDamagedMetadataFileIsRefusedNamingIt() throws IOException {
    Path metadata = epoch2.resolve(CheckpointFiles.METADATA);
    String text = Files.readString(metadata);
    Files.writeString(metadata, text.replace("parallelism=2", "parallelism=3"));
    assertNames(refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2)), metadata.toString());
  }

  @Test
  void aCheckpointOfAnotherFormatIsRefusedNamingBothFormats() throws IOException {
    Path metadata = epoch2.resolve(CheckpointFiles.METADATA);
    String text = Files.readString(metadata);
    assertTrue(text.contains("format=" + CheckpointMetadata.FORMAT), text);
    Path older = root.resolve("older.properties");
    Files.writeString(older, text.replace("format=" + CheckpointMetadata.FORMAT, "format=2"));
    CheckpointFormatException e =
        assertThrows(CheckpointFormatException.class, () -> CheckpointMetadata.read(older));
    assertNames(
        e,
        older.toString(),
        "format 2",
        "reads format " + CheckpointMetadata.FORMAT,
        "resume it with the ArconRunner version that wrote the checkpoint");

    // The whole epoch in the old format, with a valid manifest: refused for its format, and not
    // sent to an older epoch, which has the same format.
    Files.copy(older, metadata, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.delete(epoch2.resolve(CheckpointFiles.MANIFEST));
    SnapshotManifest.write(CheckpointFiles.ENGINE, 2, epoch2);
    CheckpointFormatException loading =
        assertThrows(CheckpointFormatException.class, () -> CompletedCheckpoint.load(epoch2));
    assertFalse(loading.getMessage().contains("older epoch"), loading.getMessage());
  }

  @Test
  void aMissingDirectoryOfAnInstanceThatSavedNothingIsRefusedNamingIt() throws IOException {
    // Sessions instance 0 saved nothing: its empty directory is still part of the checkpoint.
    Path empty = epoch2.resolve("vertex-1/instance-0/operator-0");
    assertTrue(Checkpoints.isEmptyDirectory(empty));
    Files.delete(empty);
    assertNames(
        refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2)),
        empty.toString(),
        "'Sessions' instance 0");
  }

  @Test
  void anEpochWithoutManifestIsIncomplete() throws IOException {
    Files.delete(epoch2.resolve(SnapshotManifest.FILE_NAME));
    CorruptCheckpointException e = refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch2));
    assertNames(
        e, epoch2.toString(), "incomplete", SnapshotManifest.FILE_NAME, "--restoreFrom=" + epoch1);
    // The job directory then resumes from its newest complete epoch.
    assertEquals(1, CompletedCheckpoint.load(jobDir).epoch());
  }

  @Test
  void withoutAnOlderEpochTheAdviceIsToStartFresh() throws IOException {
    byte[] bytes = Files.readAllBytes(epoch1.resolve("vertex-0/instance-0/operator-0/position"));
    bytes[0] ^= 1;
    Files.write(epoch1.resolve("vertex-0/instance-0/operator-0/position"), bytes);
    assertNames(refusedAsCorrupt(() -> CompletedCheckpoint.load(epoch1)), "without --restoreFrom");
  }

  @Test
  void aRenamedEpochDirectoryIsRefused() throws IOException {
    Path renamed = jobDir.resolve("epoch-0000000007");
    Files.move(epoch2, renamed);
    assertNames(refusedAsCorrupt(() -> CompletedCheckpoint.load(renamed)), "records epoch 2");
  }

  @Test
  void aForeignDirectoryIsRefused() throws IOException {
    Path foreign = root.resolve("photos");
    writeRandom(foreign.resolve("holiday/beach.jpg"), 100, 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CompletedCheckpoint.load(foreign));
    assertNames(e, foreign.toString(), "not an Arcon checkpoint");
  }

  @Test
  void aStateBackendSnapshotIsNotAJobCheckpoint() {
    Path snapshot = root.resolve("backend/epoch-0000000003");
    writeRandom(snapshot.resolve("data"), 100, 1);
    SnapshotManifest.write("rocksdb", 3, snapshot);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CompletedCheckpoint.load(snapshot));
    assertNames(e, snapshot.toString(), "not an Arcon job checkpoint", "'rocksdb'");
  }

  @Test
  void aMissingPathIsRefused() {
    Path missing = root.resolve("no/such/checkpoint");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CompletedCheckpoint.load(missing));
    assertNames(e, missing.toString(), "does not exist");
    IllegalArgumentException file =
        assertThrows(
            IllegalArgumentException.class,
            () -> CompletedCheckpoint.load(epoch2.resolve(CheckpointFiles.METADATA)));
    assertNames(file, "is a file");
  }

  @Test
  void aCheckpointDirectoryWithSeveralJobsAsksWhichOne() {
    CheckpointStore.open(checkpointDir, "another job", 1).close();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CompletedCheckpoint.load(checkpointDir));
    assertNames(e, checkpointDir.toString(), "another_job", JOB);
  }

  @Test
  void aJobDirectoryWithoutCompleteEpochIsRefused() {
    try (CheckpointStore store = CheckpointStore.open(checkpointDir, "fresh", 1)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> CompletedCheckpoint.load(store.jobDirectory()));
      assertNames(e, store.jobDirectory().toString(), "no complete epoch");
    }
  }

  private static CorruptCheckpointException refusedAsCorrupt(Executable load) {
    return assertThrows(CorruptCheckpointException.class, load);
  }

  private static void assertNames(RuntimeException e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' missing in: " + e.getMessage());
    }
  }
}
