package io.arcon.runtime.checkpoint;

import static io.arcon.runtime.checkpoint.Checkpoints.graph;
import static io.arcon.runtime.checkpoint.Checkpoints.idOf;
import static io.arcon.runtime.checkpoint.Checkpoints.writeRandom;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.checkpoint.Checkpoints.V;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.operator.OperatorRestore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestorePlanTest {
  private static final String JOB = "counts";

  @TempDir Path root;

  /** What each (transform, previous instance) saved, by the test's own bookkeeping. */
  private final Map<String, byte[]> saved = new HashMap<>();

  private int runs;

  /**
   * Takes epoch 1 of: vertex 0 "Read" [Read, Parse] at parallelism 2 (Read saves positions in both
   * instances), vertex 1 "Count" [Count/Merge, Format] at 2 (Count/Merge saves in instance 0 only).
   */
  private CompletedCheckpoint checkpoint(Set<InstanceId> finished) {
    JobGraph g =
        graph(new V("Read", 2, "Read", "Parse"), new V("Count", 2, "Count/Merge", "Format"));
    try (CheckpointStore store = CheckpointStore.open(root.resolve("run" + runs++), JOB, 1)) {
      PendingCheckpoint p = store.begin(1);
      for (int i = 0; i < 2; i++) {
        saved.put("Read/" + i, writeRandom(p.operatorDirectory(0, i, 0).resolve("pos"), 20, i));
      }
      saved.put("Count/Merge/0", writeRandom(p.operatorDirectory(1, 0, 0).resolve("kv"), 300, 7));
      // Parse and Format asked for a directory but wrote nothing: they have no state.
      p.operatorDirectory(0, 0, 1);
      p.operatorDirectory(1, 1, 1);
      p.commit(CheckpointLayout.of(JOB, g), finished, 0);
      return CompletedCheckpoint.load(store.jobDirectory());
    }
  }

  @Test
  void sameParallelismRestoresOwnDirectoriesWhateverTheVertexIds() throws IOException {
    CompletedCheckpoint c = checkpoint(Set.of());
    // Translated in another order, with a new stateless transform: vertex ids differ.
    JobGraph now =
        graph(new V("Count", 2, "Count/Merge", "Format", "Log"), new V("Read", 2, "Read", "Parse"));
    RestorePlan plan = RestorePlan.of(c, now);
    int read = idOf(now, "Read");
    int count = idOf(now, "Count");
    assertEquals(1, read);
    for (int i = 0; i < 2; i++) {
      OperatorRestore r = plan.restoreFor(read, 0, i, 2);
      assertNotNull(r);
      assertEquals(1, r.epoch());
      assertTrue(r.sameParallelism());
      assertEquals(2, r.previousParallelism());
      assertArrayEquals(
          saved.get("Read/" + i), Files.readAllBytes(r.ownDirectory().resolve("pos")));
      assertEquals(r.directoryOf(i), r.ownDirectory());
    }
    OperatorRestore merge0 = plan.restoreFor(count, 0, 0, 2);
    assertArrayEquals(
        saved.get("Count/Merge/0"), Files.readAllBytes(merge0.ownDirectory().resolve("kv")));
    OperatorRestore merge1 = plan.restoreFor(count, 0, 1, 2);
    assertTrue(Files.isDirectory(merge1.ownDirectory()));
    assertTrue(Checkpoints.isEmptyDirectory(merge1.ownDirectory()));
    // Stateless and new transforms restore nothing.
    assertNull(plan.restoreFor(read, 1, 0, 2));
    assertNull(plan.restoreFor(count, 1, 1, 2));
    assertNull(plan.restoreFor(count, 2, 0, 2));
  }

  @Test
  void changedParallelismHandsEveryPreviousInstance() throws IOException {
    CompletedCheckpoint c = checkpoint(Set.of());
    JobGraph now =
        graph(new V("Read", 3, "Read", "Parse"), new V("Count", 1, "Count/Merge", "Format"));
    RestorePlan plan = RestorePlan.of(c, now);
    for (int i = 0; i < 3; i++) {
      OperatorRestore r = plan.restoreFor(0, 0, i, 3);
      assertFalse(r.sameParallelism());
      assertEquals(2, r.previousParallelism());
      for (int previous = 0; previous < 2; previous++) {
        assertArrayEquals(
            saved.get("Read/" + previous),
            Files.readAllBytes(r.directoryOf(previous).resolve("pos")));
      }
      IllegalStateException own = assertThrows(IllegalStateException.class, r::ownDirectory);
      assertTrue(own.getMessage().contains("'Read'"), own.getMessage());
      assertThrows(IllegalArgumentException.class, () -> r.directoryOf(2));
    }
    OperatorRestore merge = plan.restoreFor(1, 0, 0, 1);
    assertEquals(2, merge.previousParallelism());
    assertTrue(Checkpoints.isEmptyDirectory(merge.directoryOf(1)));
    assertArrayEquals(
        saved.get("Count/Merge/0"), Files.readAllBytes(merge.directoryOf(0).resolve("kv")));
  }

  @Test
  void aMissingOrRenamedTransformWithStateIsRefused() {
    CompletedCheckpoint c = checkpoint(Set.of());
    JobGraph renamed =
        graph(new V("Read", 2, "Read", "Parse"), new V("Count", 2, "Count/Combine", "Format"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RestorePlan.of(c, renamed));
    assertTrue(
        e.getMessage().contains("transform 'Count/Merge' with state in epoch 1 is missing"),
        e.getMessage());
    JobGraph removed = graph(new V("Read", 2, "Read", "Parse"));
    assertThrows(IllegalArgumentException.class, () -> RestorePlan.of(c, removed));
    // Transforms without state may be renamed or removed.
    JobGraph statelessChanged =
        graph(new V("Read", 2, "Read", "Parse2"), new V("Count", 2, "Count/Merge"));
    assertNotNull(RestorePlan.of(c, statelessChanged).restoreFor(1, 0, 0, 2));
  }

  @Test
  void duplicateTransformNamesAreRefused() {
    CompletedCheckpoint c = checkpoint(Set.of());
    JobGraph dup =
        graph(new V("Read", 2, "Read", "Parse"), new V("Count", 2, "Count/Merge", "Parse"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RestorePlan.of(c, dup));
    assertTrue(e.getMessage().contains("'Parse' is used by two operators"), e.getMessage());
  }

  @Test
  void rescalingBeyondTheKeyGroupsIsRefused() {
    CompletedCheckpoint c = checkpoint(Set.of());
    JobGraph wide =
        graph(
            new V("Read", 2, "Read", "Parse"),
            new V("Count", KeyGroups.MAX_PARALLELISM + 1, "Count/Merge", "Format"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RestorePlan.of(c, wide));
    assertTrue(e.getMessage().contains("'Count/Merge'"), e.getMessage());
    assertTrue(e.getMessage().contains("<= " + KeyGroups.MAX_PARALLELISM), e.getMessage());
  }

  @Test
  void finishedInstancesWithTheSameParallelismStartFinished() {
    CompletedCheckpoint c = checkpoint(Set.of(new InstanceId(0, 1)));
    JobGraph same =
        graph(new V("Count", 2, "Count/Merge", "Format"), new V("Read", 2, "Read", "Parse"));
    RestorePlan plan = RestorePlan.of(c, same);
    assertFalse(plan.startsFinished(1, 0));
    assertTrue(plan.startsFinished(1, 1));
    assertFalse(plan.startsFinished(0, 1));
    // A finished instance that saved state still gets it (and starts finished).
    assertNotNull(plan.restoreFor(1, 0, 1, 2));
  }

  @Test
  void afterAParallelismChangeOnlyAFullyFinishedVertexStartsFinished() {
    JobGraph rescaled =
        graph(new V("Read", 3, "Read", "Parse"), new V("Count", 2, "Count/Merge", "Format"));
    RestorePlan partly = RestorePlan.of(checkpoint(Set.of(new InstanceId(0, 1))), rescaled);
    for (int i = 0; i < 3; i++) {
      assertFalse(partly.startsFinished(0, i), "instance " + i);
    }
    // The finished previous instance 1 still contributes its directory to the restore.
    assertTrue(Files.isDirectory(partly.restoreFor(0, 0, 2, 3).directoryOf(1)));

    saved.clear();
    RestorePlan all =
        RestorePlan.of(checkpoint(Set.of(new InstanceId(0, 0), new InstanceId(0, 1))), rescaled);
    for (int i = 0; i < 3; i++) {
      assertTrue(all.startsFinished(0, i), "instance " + i);
    }
    assertFalse(all.startsFinished(1, 0));
  }

  @Test
  void aVertexOfOnlyNewTransformsDoesNotStartFinished() {
    CompletedCheckpoint c = checkpoint(Set.of(new InstanceId(0, 0), new InstanceId(0, 1)));
    JobGraph extended =
        graph(
            new V("Read", 2, "Read", "Parse"),
            new V("Count", 2, "Count/Merge", "Format"),
            new V("Audit", 2, "Audit"));
    RestorePlan plan = RestorePlan.of(c, extended);
    assertFalse(plan.startsFinished(2, 0));
    assertTrue(plan.startsFinished(0, 0));
    assertNull(plan.restoreFor(2, 0, 0, 2));
  }

  @Test
  void restoreForChecksItsArguments() {
    RestorePlan plan =
        RestorePlan.of(
            checkpoint(Set.of()),
            graph(new V("Read", 2, "Read", "Parse"), new V("Count", 2, "Count/Merge", "Format")));
    assertThrows(IllegalArgumentException.class, () -> plan.restoreFor(0, 0, 0, 3));
    assertThrows(IllegalArgumentException.class, () -> plan.restoreFor(0, 0, 2, 2));
    assertThrows(IllegalArgumentException.class, () -> plan.restoreFor(0, 2, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> plan.restoreFor(5, 0, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> plan.startsFinished(0, 2));
  }
}
