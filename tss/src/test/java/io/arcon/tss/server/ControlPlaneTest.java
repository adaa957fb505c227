package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade driven directly, without gRPC: what an app reports reaches the right part. */
class ControlPlaneTest {
  @TempDir Path home;

  private final CountDownLatch commitStarted = new CountDownLatch(1);
  private final CountDownLatch releaseCommit = new CountDownLatch(1);
  private volatile boolean holdCommits;
  private LakeLayout lake;
  private ControlPlane plane;

  @BeforeEach
  void start() {
    lake = LakeLayout.local(home.resolve("lake"));
    // A real committer that, when asked, holds a commit at its start so the test can act while
    // it runs.
    VersionCommitter gated =
        new VersionCommitter(lake) {
          @Override
          void prepare(TssSpec spec, Instant version, Instant diffBase) throws IOException {
            if (holdCommits) {
              commitStarted.countDown();
              try {
                releaseCommit.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            super.prepare(spec, version, diffBase);
          }
        };
    plane = new ControlPlane(new CatalogStore(home), lake, gated);
    plane.resume();
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  private List<List<String>> versions(String tss) {
    return plane.describeTss(tss).rows().stream().map(r -> r.subList(0, 3)).toList();
  }

  private AppSession register(RecordedStream stream, String app, String... states) {
    AppSession session = new AppSession(stream);
    plane.register(
        session,
        new Registration(app, Arrays.stream(states).map(CatalogFixtures::counter).toList()));
    return session;
  }

  @Test
  void anUnregisteredStreamIsRefused() {
    AppSession stranger = new AppSession(new RecordedStream());
    ControlPlaneException e =
        assertThrows(ControlPlaneException.class, () -> plane.watermark(stranger, T));
    assertEquals(Status.Code.FAILED_PRECONDITION, e.code());
  }

  @Test
  void aSealWithoutEveryStateFailsTheVersionAndAFailureIsRecorded() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x", "y");
    assertTrue(stream.sent.get(0).hasRegistered());
    StatementResult created =
        plane.execute(
            "CREATE TSS t AS EXTRACT a.x, a.y AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    assertTrue(
        created.message().startsWith("TSS t created; first version at " + T), created.message());

    plane.watermark(session, minutes(6));
    List<ExtractionAssignment> assignments = stream.assignments();
    assertEquals(2, assignments.size());
    ExtractionAssignment first = assignments.get(0);
    plane.sealed(
        session,
        "t",
        ProtoTime.toInstant(first.getVersion()),
        List.of(new SealedFile("x", first.getTargetDirectory() + "/x/part-0.parquet", 0)));
    plane.failed(session, "t", minutes(5), "disk full");
    plane.sealed(session, "gone", T, List.of());

    assertEquals(
        List.of(
            List.of(T.toString(), "failed", "app a: sealed without writing states [y]"),
            List.of(minutes(5).toString(), "failed", "app a: disk full"),
            List.of(
                minutes(10).toString(), "waiting", "waiting on a (watermark " + minutes(6) + ")")),
        versions("t"));

    plane.disconnected(session);
    assertEquals(
        List.of(
            new AppState.Snapshot(
                "a", false, minutes(6), null, null, List.of(counter("x"), counter("y")))),
        plane.showApps());
  }

  private static SealedFile file(ExtractionAssignment assignment, String state) {
    return new SealedFile(
        state, assignment.getTargetDirectory() + "/" + state + "/part-0.parquet", 0);
  }

  @Test
  void aVersionFailedWhileItsCommitRunsStaysFailed() throws Exception {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00';");
    plane.watermark(session, minutes(1));
    ExtractionAssignment assignment = stream.assignments().get(0);
    holdCommits = true;
    plane.sealed(session, "t", T, List.of(file(assignment, "x")));
    assertTrue(commitStarted.await(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS));
    assertEquals(List.of(List.of(T.toString(), "committing", "all apps sealed")), versions("t"));

    plane.failed(session, "t", T, "disk full");
    releaseCommit.countDown();
    plane.close(); // waits for the commit thread to finish the held commit

    assertEquals(List.of(List.of(T.toString(), "failed", "app a: disk full")), versions("t"));
    List<VersionRecord> log = new CatalogStore(home).loadFinalVersions("t");
    assertEquals(1, log.size(), "the version is recorded final once: " + log);
    assertEquals(VersionStatus.FAILED, log.get(0).getStatus());
    assertFalse(
        Files.exists(Path.of(java.net.URI.create(lake.committedMarker("t", T)))),
        "a failed version has no _COMMITTED marker");
  }

  @Test
  void aSealLackingStatesFailsItsVersionAndTheNextSealedVersionCommits() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x", "y");
    plane.execute(
        "CREATE TSS t AS EXTRACT a.x, a.y AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES"
            + " UNTIL '2026-12-02 13:05:00';");
    plane.watermark(session, minutes(6));
    List<ExtractionAssignment> assignments = stream.assignments();
    assertEquals(2, assignments.size());
    ExtractionAssignment second = assignments.get(1);
    assertEquals(minutes(5), ProtoTime.toInstant(second.getVersion()));
    // The later version is sealed first; it can only commit once the earlier one is final.
    plane.sealed(session, "t", minutes(5), List.of(file(second, "x"), file(second, "y")));
    plane.sealed(session, "t", T, List.of(file(assignments.get(0), "x")));

    TestSupport.await(
        "the second version to commit",
        () -> versions("t").get(1).get(1).equals("committed"),
        () -> versions("t").toString());
    assertEquals(
        List.of(T.toString(), "failed", "app a: sealed without writing states [y]"),
        versions("t").get(0));
  }
}
