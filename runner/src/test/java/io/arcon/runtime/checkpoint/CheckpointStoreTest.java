package io.arcon.runtime.checkpoint;

import static io.arcon.runtime.checkpoint.Checkpoints.bytesUnder;
import static io.arcon.runtime.checkpoint.Checkpoints.filesUnder;
import static io.arcon.runtime.checkpoint.Checkpoints.graph;
import static io.arcon.runtime.checkpoint.Checkpoints.writeRandom;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.checkpoint.Checkpoints.V;
import io.arcon.runtime.graph.JobGraph;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
  private static final String JOB = "wordcount";

  @TempDir Path root;

  private Path checkpointDir() {
    return root.resolve("checkpoints");
  }

  private static JobGraph twoVertices() {
    return graph(new V("Read", 2, "Read", "Split"), new V("Count", 3, "Count", "Format"));
  }

  @Test
  void committedEpochLoadsBackWithItsLayoutFilesAndFinishedInstances() throws IOException {
    JobGraph g = twoVertices();
    CheckpointLayout layout = CheckpointLayout.of(JOB, g);
    Map<Path, byte[]> written = new HashMap<>();
    long before = System.currentTimeMillis();
    CompletedCheckpoint committed;
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 3)) {
      PendingCheckpoint p = store.begin(1);
      // Read saves positions in both instances; Count instance 2 saves nothing (finished).
      for (int i = 0; i < 2; i++) {
        Path d = p.operatorDirectory(0, i, 0);
        written.put(d.resolve("position"), writeRandom(d.resolve("position"), 100 + i, i));
      }
      for (int i = 0; i < 2; i++) {
        Path d = p.operatorDirectory(1, i, 0).resolve("heap");
        written.put(d.resolve("table-1"), writeRandom(d.resolve("table-1"), 5000 + i, 10 + i));
      }
      committed = p.commit(layout, Set.of(new InstanceId(1, 2)), before - 7);
      assertEquals(1, store.lastEpoch());
    }
    long after = System.currentTimeMillis();
    Path epochDir = checkpointDir().resolve(JOB).resolve("epoch-0000000001");
    assertEquals(epochDir, committed.directory());

    for (Path from : List.of(epochDir, checkpointDir().resolve(JOB), checkpointDir())) {
      CompletedCheckpoint loaded = CompletedCheckpoint.load(from);
      assertEquals(1, loaded.epoch(), "loaded from " + from);
      assertEquals(epochDir, loaded.directory());
      assertEquals(layout, loaded.layout());
      assertEquals(Set.of(new InstanceId(1, 2)), loaded.finishedInstances());
      assertEquals(before - 7, loaded.startedAtMillis());
      assertTrue(loaded.committedAtMillis() >= before && loaded.committedAtMillis() <= after);
      assertEquals(bytesUnder(epochDir), loaded.sizeBytes());
      assertEquals(filesUnder(epochDir).size(), loaded.fileCount());
      assertEquals(List.of("Read", "Count"), loaded.transformsWithState());
    }
    assertEquals(bytesUnder(epochDir), committed.sizeBytes());
    assertEquals(filesUnder(epochDir).size(), committed.fileCount());
    for (Map.Entry<Path, byte[]> e : written.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(e.getKey()), e.getKey().toString());
    }
    // Every instance of a transform with state has a directory, an empty one if it saved nothing.
    Path finishedDir = epochDir.resolve("vertex-1/instance-2/operator-0");
    assertTrue(Files.isDirectory(finishedDir));
    assertTrue(Checkpoints.isEmptyDirectory(finishedDir));
  }

  @Test
  void anyTransformNameSurvivesTheRoundTrip() {
    List<String> names =
        List.of(
            "Read/Impulse",
            "ParDo(Anonymous)2",
            "key = value: #1",
            "tab\there",
            "line\nbreak",
            "\\back\\slash",
            "ünïcødé ✓",
            " leading and trailing ");
    JobGraph g = graph(new V("weird", 1, names.toArray(String[]::new)));
    CheckpointLayout layout = CheckpointLayout.of("job with = and : ", g);
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), layout.jobName(), 1)) {
      PendingCheckpoint p = store.begin(1);
      writeRandom(p.operatorDirectory(0, 0, 3).resolve("s"), 10, 1);
      p.commit(layout, Set.of(), 0);
      CompletedCheckpoint loaded = CompletedCheckpoint.load(store.jobDirectory());
      assertEquals(layout, loaded.layout());
      assertEquals(List.of("tab\there"), loaded.transformsWithState());
    }
  }

  @Test
  void retentionKeepsTheNewestEpochs() {
    JobGraph g = twoVertices();
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 2)) {
      for (long epoch = 1; epoch <= 5; epoch++) {
        PendingCheckpoint p = store.begin(epoch);
        writeRandom(p.operatorDirectory(1, 0, 0).resolve("data"), 64, epoch);
        p.commit(CheckpointLayout.of(JOB, g), Set.of(), 0);
        Set<String> expected = new HashSet<>();
        for (long kept = Math.max(1, epoch - 1); kept <= epoch; kept++) {
          expected.add(CheckpointFiles.epochDirectoryName(kept));
        }
        assertEquals(expected, epochNames(store.jobDirectory()), "after epoch " + epoch);
      }
      assertEquals(5, store.lastEpoch());
      assertEquals(5, store.latest().orElseThrow().epoch());
    }
  }

  @Test
  void latestSkipsAnIncompleteEpoch() throws IOException {
    JobGraph g = twoVertices();
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 3)) {
      assertEquals(Optional.empty(), store.latest());
      PendingCheckpoint first = store.begin(1);
      writeRandom(first.operatorDirectory(0, 1, 0).resolve("p"), 10, 1);
      first.commit(CheckpointLayout.of(JOB, g), Set.of(), 0);
      PendingCheckpoint second = store.begin(2);
      writeRandom(second.operatorDirectory(0, 1, 0).resolve("p"), 10, 2);
      // A manifest being written (temporary name) does not make an epoch complete either.
      Files.writeString(second.directory().resolve(CheckpointFiles.MANIFEST + ".tmp"), "partial");
      assertEquals(1, store.latest().orElseThrow().epoch());
      second.abort();
      assertFalse(Files.exists(second.directory()));
    }
  }

  @Test
  void openRemovesEpochsACrashedRunLeftIncompleteAndContinuesNumbering() throws IOException {
    JobGraph g = twoVertices();
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 3)) {
      for (long epoch = 1; epoch <= 2; epoch++) {
        PendingCheckpoint p = store.begin(epoch);
        writeRandom(p.operatorDirectory(0, 0, 0).resolve("p"), 10, epoch);
        p.commit(CheckpointLayout.of(JOB, g), Set.of(), 0);
      }
    }
    // What a kill -9 during epoch 3 leaves: data but no manifest.
    Path crashed = checkpointDir().resolve(JOB).resolve("epoch-0000000003");
    writeRandom(crashed.resolve("vertex-0/instance-0/operator-0/p"), 10, 3);
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 3)) {
      assertFalse(Files.exists(crashed));
      assertEquals(2, store.lastEpoch());
      assertEquals(
          Set.of("epoch-0000000001", "epoch-0000000002"), epochNames(store.jobDirectory()));
      IllegalArgumentException stale =
          assertThrows(IllegalArgumentException.class, () -> store.begin(2));
      assertTrue(stale.getMessage().contains("lastEpoch() + 1"), stale.getMessage());
      PendingCheckpoint p = store.begin(3);
      writeRandom(p.operatorDirectory(0, 0, 0).resolve("p"), 10, 33);
      assertEquals(3, p.commit(CheckpointLayout.of(JOB, g), Set.of(), 0).epoch());
    }
  }

  @Test
  void closeAbortsEpochsInProgress() {
    Path directory;
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 3)) {
      PendingCheckpoint p = store.begin(1);
      writeRandom(p.operatorDirectory(0, 0, 0).resolve("p"), 10, 1);
      directory = p.directory();
    }
    assertFalse(Files.exists(directory));
  }

  @Test
  void retainedMustBeAtLeastOne() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CheckpointStore.open(checkpointDir(), JOB, 0));
    assertTrue(e.getMessage().contains(">= 1, got 0"), e.getMessage());
    assertFalse(Files.exists(checkpointDir()));
  }

  @Test
  void aJobNameCannotEscapeTheCheckpointDirectory() throws IOException {
    Path checkpointDir = root.resolve("a/b/checkpoints");
    for (String name : List.of("../../etc", "..", "/etc/passwd", "a/../../b", "", "C:\\x")) {
      try (CheckpointStore store = CheckpointStore.open(checkpointDir, name, 1)) {
        assertEquals(checkpointDir, store.jobDirectory().getParent(), name);
        assertTrue(Files.isDirectory(store.jobDirectory()), name);
      }
    }
    // Nothing was created beside or above the checkpoint directory.
    try (var siblings = Files.list(root.resolve("a/b"))) {
      assertEquals(List.of(checkpointDir), siblings.toList());
    }
    try (var siblings = Files.list(root.resolve("a"))) {
      assertEquals(List.of(root.resolve("a/b")), siblings.toList());
    }
  }

  @Test
  void aSecondStoreOfTheSameJobIsRefusedUntilTheFirstCloses() throws Exception {
    CheckpointStore first = CheckpointStore.open(checkpointDir(), JOB, 1);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> CheckpointStore.open(checkpointDir(), JOB, 1));
    assertTrue(e.getMessage().contains(first.jobDirectory().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("Stop the other run"), e.getMessage());
    assertTrue(e.getMessage().contains("(a job of this process holds"), e.getMessage());
    // The refused attempt did not weaken the first store's lock against other processes.
    assertEquals("busy", probeLock(first.jobDirectory().resolve(CheckpointFiles.LOCK)));
    // Another job is independent.
    CheckpointStore.open(checkpointDir(), "other", 1).close();
    first.close();
    assertEquals("free", probeLock(first.jobDirectory().resolve(CheckpointFiles.LOCK)));
    CheckpointStore.open(checkpointDir(), JOB, 1).close();
  }

  @Test
  void aJobDirectoryLockedByAnotherProcessIsRefused() throws Exception {
    Process other = lockProbe(checkpointDir(), "store");
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("held", out.readLine());
      Path lockFile = checkpointDir().resolve(JOB).resolve(CheckpointFiles.LOCK);
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class, () -> CheckpointStore.open(checkpointDir(), JOB, 1));
      assertTrue(e.getMessage().contains("is in use by another running job"), e.getMessage());
      assertTrue(e.getMessage().contains(lockFile.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("(process " + other.pid() + " holds"), e.getMessage());
      other.getOutputStream().close(); // the other run closes its store when its stdin ends
      assertEquals("closed", out.readLine());
      assertTrue(other.waitFor(60, TimeUnit.SECONDS));
    } finally {
      other.destroy();
    }
    CheckpointStore.open(checkpointDir(), JOB, 1).close();
  }

  @Test
  void nodeThreadsCreateOperatorDirectoriesConcurrently() throws Exception {
    int threads = 8;
    int perThread = 200;
    JobGraph g = graph(new V("A", 4, "a0", "a1", "a2"), new V("B", 4, "b0", "b1"));
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 1)) {
      PendingCheckpoint p = store.begin(1);
      ConcurrentHashMap<String, Path> seen = new ConcurrentHashMap<>();
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int k = 0; k < perThread; k++) {
                    int vertex = k % 2;
                    int instance = (k / 2) % 4;
                    int operator = (k / 8) % (vertex == 0 ? 3 : 2);
                    Path d = p.operatorDirectory(vertex, instance, operator);
                    Path first = seen.putIfAbsent(vertex + "/" + instance + "/" + operator, d);
                    assertTrue(first == null || first.equals(d));
                    Files.write(d.resolve("t" + thread + "-" + k), new byte[] {(byte) k});
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertEquals(4 * 3 + 4 * 2, seen.size());
      CompletedCheckpoint c = p.commit(CheckpointLayout.of(JOB, g), Set.of(), 0);
      assertEquals(threads * perThread + 2, c.fileCount());
      assertEquals(threads * perThread + 2, CompletedCheckpoint.load(c.directory()).fileCount());
      IllegalStateException late =
          assertThrows(IllegalStateException.class, () -> p.operatorDirectory(0, 0, 0));
      assertTrue(late.getMessage().contains("already committed"), late.getMessage());
    }
  }

  @Test
  void abortAfterCommitKeepsTheCheckpoint() {
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 1)) {
      PendingCheckpoint p = store.begin(1);
      writeRandom(p.operatorDirectory(0, 0, 0).resolve("p"), 10, 1);
      CompletedCheckpoint c = p.commit(CheckpointLayout.of(JOB, twoVertices()), Set.of(), 0);
      p.abort();
      assertTrue(Files.isDirectory(c.directory()));
      assertEquals(1, store.latest().orElseThrow().epoch());
      assertThrows(
          IllegalStateException.class,
          () -> p.commit(CheckpointLayout.of(JOB, twoVertices()), Set.of(), 0));
    }
  }

  @Test
  void aFileOutsideTheLayoutFailsTheCommitAndAbortsTheEpoch() {
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 1)) {
      PendingCheckpoint p = store.begin(1);
      // Vertex 1 ("Count") has 3 instances: instance 3 does not exist in the layout.
      Path stray = p.operatorDirectory(1, 3, 0).resolve("x");
      writeRandom(stray, 10, 1);
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> p.commit(CheckpointLayout.of(JOB, twoVertices()), Set.of(), 0));
      assertTrue(e.getMessage().contains(stray.toString()), e.getMessage());
      assertFalse(Files.exists(p.directory()));
      assertEquals(0, store.lastEpoch());
      assertEquals(Optional.empty(), store.latest());
    }
  }

  @Test
  void commitChecksTheLayoutBelongsToTheJobAndItsFinishedInstancesExist() {
    try (CheckpointStore store = CheckpointStore.open(checkpointDir(), JOB, 1)) {
      PendingCheckpoint p = store.begin(1);
      IllegalArgumentException otherJob =
          assertThrows(
              IllegalArgumentException.class,
              () -> p.commit(CheckpointLayout.of("other", twoVertices()), Set.of(), 0));
      assertTrue(otherJob.getMessage().contains("'other'"), otherJob.getMessage());
      IllegalArgumentException badInstance =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  p.commit(
                      CheckpointLayout.of(JOB, twoVertices()), Set.of(new InstanceId(0, 2)), 0));
      assertTrue(badInstance.getMessage().contains("0/2"), badInstance.getMessage());
      // Still open: the refusals did not consume the epoch.
      assertEquals(
          p.directory(),
          p.commit(CheckpointLayout.of(JOB, twoVertices()), Set.of(), 0).directory());
    }
  }

  private static Set<String> epochNames(Path jobDirectory) {
    Set<String> names = new HashSet<>();
    for (CheckpointFiles.EpochDirectory e : CheckpointFiles.epochs(jobDirectory)) {
      names.add(e.path().getFileName().toString());
    }
    return names;
  }

  /** "busy" or "free": whether another process can lock {@code lockFile} right now. */
  private String probeLock(Path lockFile) throws Exception {
    Process probe = lockProbe(lockFile, "probe");
    String answer;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
      answer = out.readLine();
    }
    assertTrue(probe.waitFor(60, TimeUnit.SECONDS));
    return answer;
  }

  /**
   * Runs another JVM: "probe" tries to lock the file {@code path} and says whether it could;
   * "store" opens a {@link CheckpointStore} of {@link #JOB} under {@code path}, as another run
   * would, until its stdin ends.
   */
  private Process lockProbe(Path path, String mode) throws IOException {
    Path source = root.resolve("LockProbe.java");
    if (!Files.exists(source)) {
      Files.writeString(
          source,
          """
          import io.arcon.runtime.checkpoint.CheckpointStore;
          import java.nio.channels.FileChannel;
          import java.nio.channels.FileLock;
          import java.nio.file.Path;
          import java.nio.file.StandardOpenOption;

          public class LockProbe {
            public static void main(String[] args) throws Exception {
              if (args[1].equals("probe")) {
                try (FileChannel c = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
                  FileLock lock = c.tryLock();
                  System.out.println(lock == null ? "busy" : "free");
                }
                return;
              }
              try (CheckpointStore store = CheckpointStore.open(Path.of(args[0]), args[2], 1)) {
                System.out.println("held");
                System.out.flush();
                System.in.read();
              }
              System.out.println("closed");
            }
          }
          """);
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            source.toString(),
            path.toString(),
            mode,
            JOB)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }
}
