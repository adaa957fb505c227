package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.COUNTER;
import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.write.ParquetVersionWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits against a real lake in a temporary directory, on the coordinator's own thread. */
class CommitCoordinatorTest {
  @TempDir Path home;

  private final Object lock = new Object();
  private LakeLayout lake;
  private CatalogStore store;
  private AppRegistry apps;
  private TssCatalog tsss;
  private CommitCoordinator commits;

  @BeforeEach
  void start() {
    lake = LakeLayout.local(home.resolve("lake"));
    store = new CatalogStore(home);
    apps = new AppRegistry(store);
    tsss = new TssCatalog(store, apps);
    VersionScheduler scheduler = new VersionScheduler(apps, tsss, lake);
    commits = new CommitCoordinator(lock, tsss, scheduler, new VersionCommitter(lake), lake);
  }

  @AfterEach
  void stop() {
    commits.close();
  }

  private static Path local(String uri) {
    return Path.of(URI.create(uri));
  }

  /** A TSS whose version T app {@code a} sealed, with the agent's file written when asked. */
  private TssState sealedAtT(TssSpec spec, boolean writeFile) {
    TssState tss = new TssState(spec);
    synchronized (lock) {
      tsss.add(tss);
      tss.addPending(T);
      tsss.persist(tss);
    }
    String file = lake.stateFile(spec.name(), T, "a", "clicks");
    if (writeFile) {
      new ParquetVersionWriter()
          .writeVersion(file, COUNTER, List.of(new StateRow("alice", null, 3L, T)), T);
    }
    synchronized (lock) {
      tss.seal("a", T, List.of(new SealedFile("clicks", file, 1)));
    }
    return tss;
  }

  private Version.Status statusAtT(TssState tss) {
    synchronized (lock) {
      return tss.version(T).status();
    }
  }

  @Test
  void aSealedVersionCommitsAndTheNextVersionIsAssigned() {
    RecordedStream stream = new RecordedStream();
    synchronized (lock) {
      apps.register(new AppSession(stream), new Registration("a", List.of()));
      apps.get("a").reportWatermark(minutes(6));
    }
    TssState tss = sealedAtT(spec("t", 2, false, "a.clicks"), true);
    synchronized (lock) {
      commits.schedule(tss);
    }
    TestSupport.await("the commit", () -> statusAtT(tss) == Version.Status.COMMITTED);

    assertTrue(Files.exists(local(lake.committedMarker("t", T))));
    List<VersionRecord> log = store.loadFinalVersions("t");
    assertEquals(1, log.size());
    assertEquals(VersionStatus.COMMITTED, log.get(0).getStatus());
    synchronized (lock) {
      assertFalse(tss.isCommitting(T));
      assertEquals(List.of(minutes(5)), List.copyOf(tss.openTimes()));
      assertEquals(
          List.of(minutes(5)),
          stream.assignments().stream().map(a -> ProtoTime.toInstant(a.getVersion())).toList());
    }
  }

  @Test
  void aCommitThatFailsMarksTheVersionFailed() {
    // DIFF stages the agent's file first: without it the commit cannot go through.
    TssState tss = sealedAtT(spec("d", 1, true, "a.clicks"), false);
    synchronized (lock) {
      commits.schedule(tss);
    }
    TestSupport.await("the failed commit", () -> statusAtT(tss) == Version.Status.FAILED);
    synchronized (lock) {
      assertTrue(tss.version(T).failure().startsWith("commit failed: "), tss.version(T).failure());
    }
    assertFalse(Files.exists(local(lake.committedMarker("d", T))));
  }

  @Test
  void aTssDroppedDuringItsCommitIsNotRecordedAndItsFilesGo() {
    TssState tss = sealedAtT(spec("t", 1, false, "a.clicks"), true);
    synchronized (lock) {
      commits.schedule(tss);
      tsss.remove("t");
    }
    commits.deleteFiles("t");
    assertFalse(Files.exists(local(lake.tssDir("t"))));
    assertEquals(Version.Status.PENDING, statusAtT(tss));
    assertEquals(List.of(), store.loadFinalVersions("t"));
  }
}
