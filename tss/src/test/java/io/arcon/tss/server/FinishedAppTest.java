package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.wire.ProtoTime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bounded runs: an app says its input ended, gets every due version, and is told it is drained. */
class FinishedAppTest {
  private static final Duration EVERY = Duration.ofMinutes(5);

  @TempDir Path home;

  private LakeLayout lake;
  private ControlPlane plane;

  @BeforeEach
  void start() {
    lake = LakeLayout.local(home.resolve("lake"));
    plane = newPlane();
  }

  private ControlPlane newPlane() {
    return CatalogFixtures.startedPlane(home, lake);
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  private AppSession register(RecordedStream stream, String app, String... states) {
    return CatalogFixtures.register(plane, stream, app, states);
  }

  /** The oracle: versions AT, AT + EVERY, ... up to and including the first one at or after end. */
  private static List<Instant> dueUpTo(Instant end) {
    List<Instant> due = new ArrayList<>();
    Instant v = T;
    due.add(v);
    while (v.isBefore(end)) {
      v = v.plus(EVERY);
      due.add(v);
    }
    return due;
  }

  private static List<Instant> versions(List<ExtractionAssignment> assignments) {
    return assignments.stream().map(a -> ProtoTime.toInstant(a.getVersion())).toList();
  }

  private static long drainedCount(RecordedStream stream) {
    synchronized (stream) {
      return stream.sent.stream().filter(ControlMessage::hasDrained).count();
    }
  }

  private void sealAll(AppSession session, List<ExtractionAssignment> assignments) {
    for (ExtractionAssignment a : assignments) {
      List<SealedFile> files = new ArrayList<>();
      for (String state : a.getStatesList()) {
        files.add(new SealedFile(state, a.getTargetDirectory() + "/" + state, 0));
      }
      plane.sealed(session, a.getTss(), ProtoTime.toInstant(a.getVersion()), files);
    }
  }

  private List<List<String>> versionRows(String tss) {
    return plane.describeTss(tss).rows().stream().map(r -> r.subList(0, 2)).toList();
  }

  private List<Instant> catalogVersions(String tss) {
    return plane.describeTss(tss).rows().stream().map(r -> Instant.parse(r.get(0))).toList();
  }

  @Test
  void aFinishedAppGetsEveryVersionUpToItsEndAndIsDrainedOnceItSealedThem() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.watermark(session, minutes(1));
    assertEquals(List.of(T), versions(stream.assignments()));

    Instant end = minutes(12);
    plane.finished(session, end);
    List<Instant> due = dueUpTo(end);
    assertEquals(List.of(T, minutes(5), minutes(10), minutes(15)), due);
    assertEquals(due, versions(stream.assignments()), "every due version at once, each once");
    assertEquals(0, drainedCount(stream));

    List<ExtractionAssignment> assignments = stream.assignments();
    sealAll(session, assignments.subList(0, assignments.size() - 1));
    assertEquals(0, drainedCount(stream), "the last due version is not sealed yet");
    sealAll(session, assignments.subList(assignments.size() - 1, assignments.size()));
    assertEquals(1, drainedCount(stream));

    TestSupport.await(
        "every version to commit",
        () -> versionRows("t").stream().allMatch(r -> r.get(1).equals("committed")),
        () -> versionRows("t").toString());
    assertEquals(due, catalogVersions("t"), "no version after the first one at or after the end");
    String message = plane.describeTss("t").message();
    assertTrue(
        message.endsWith("\napp a finished at " + end + "; last version " + due.get(3)), message);
    plane.watermark(session, minutes(60));
    assertEquals(due, catalogVersions("t"));
    assertEquals(1, drainedCount(stream), "Drained is sent once");
  }

  @Test
  void aFinishedAppIsDrainedWithoutWaitingForTheOtherAppsOfItsTss() {
    RecordedStream clicksStream = new RecordedStream();
    RecordedStream stepsStream = new RecordedStream();
    AppSession clicks = register(clicksStream, "clicks", "x");
    AppSession steps = register(stepsStream, "steps", "y");
    plane.execute(
        "CREATE TSS t AS EXTRACT clicks.x, steps.y AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.watermark(clicks, minutes(1));
    plane.watermark(steps, minutes(1));

    Instant end = minutes(7);
    plane.finished(clicks, end);
    List<Instant> due = dueUpTo(end);
    assertEquals(due, versions(clicksStream.assignments()));
    assertEquals(List.of(T), versions(stepsStream.assignments()));
    sealAll(clicks, clicksStream.assignments());
    assertEquals(1, drainedCount(clicksStream));

    plane.watermark(steps, minutes(60));
    assertEquals(due, versions(stepsStream.assignments()), "steps gets no version past the end");
    sealAll(steps, stepsStream.assignments());
    TestSupport.await(
        "every version to commit",
        () -> versionRows("t").stream().allMatch(r -> r.get(1).equals("committed")),
        () -> versionRows("t").toString());
    assertEquals(due, catalogVersions("t"));
    assertTrue(
        plane
            .describeTss("t")
            .message()
            .endsWith("\napp clicks finished at " + end + "; last version " + minutes(10)));
  }

  @Test
  void aFailedVersionOrADroppedTssCountsAsDone() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.execute("CREATE TSS u AS EXTRACT a.x AT '2026-12-02 13:00:00';");
    plane.finished(session, minutes(3));
    List<ExtractionAssignment> forT =
        stream.assignments().stream().filter(a -> a.getTss().equals("t")).toList();
    assertEquals(List.of(T, minutes(5)), versions(forT));
    sealAll(session, forT.subList(0, 1));
    plane.failed(session, "t", minutes(5), "state gone");
    assertEquals(0, drainedCount(stream), "u still waits");
    plane.drop("u");
    assertEquals(1, drainedCount(stream));
  }

  @Test
  void anAppWithoutTssIsDrainedAtOnceAndIsLiveAgainWhenItRegistersAgain() {
    RecordedStream first = new RecordedStream();
    AppSession session = register(first, "a", "x");
    plane.finished(session, minutes(3));
    assertEquals(1, drainedCount(first));
    assertEquals(minutes(3), plane.describeApp("a").finishedAt());
    plane.disconnected(session);

    RecordedStream second = new RecordedStream();
    AppSession again = register(second, "a", "x");
    assertNull(plane.describeApp("a").finishedAt(), "a restarted app is live");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.watermark(again, minutes(21));
    assertEquals(dueUpTo(minutes(20)), versions(second.assignments()));
    assertEquals(0, drainedCount(second));
  }

  @Test
  void theEndOfAFinishedAppSurvivesARestartAndItsTssStaysStopped() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.finished(session, minutes(6));
    plane.close();

    plane = newPlane();
    assertEquals(minutes(6), plane.describeApp("a").finishedAt());
    assertEquals(dueUpTo(minutes(6)), catalogVersions("t"));
    assertEquals(
        List.of(
            minutes(10).toString(),
            "waiting",
            "waiting on a (disconnected, finished at " + minutes(6) + ")"),
        plane.describeTss("t").rows().get(2).subList(0, 3));
  }

  @Test
  void aTssOfAnAppThatFinishedAndLetGoOfItsStateIsRefused() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.finished(session, minutes(3));
    assertEquals(1, drainedCount(stream), "no TSS: drained at once, the app stops");
    String expected =
        "app a has finished (its input ended at "
            + minutes(3)
            + ") and no longer holds its state; run it again (it registers under the same name)"
            + " and create the TSS while it runs";
    ControlPlaneException connected =
        assertThrows(
            ControlPlaneException.class,
            () -> plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00';"));
    assertEquals(expected, connected.getMessage());
    plane.disconnected(session);
    ControlPlaneException gone =
        assertThrows(
            ControlPlaneException.class,
            () -> plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00';"));
    assertEquals(expected, gone.getMessage());
    assertEquals(List.of(), plane.showTss().rows());
  }

  @Test
  void aFinishedAppThatStillWaitsForItsVersionsTakesANewTss() {
    RecordedStream stream = new RecordedStream();
    AppSession session = register(stream, "a", "x");
    plane.execute("CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.finished(session, minutes(3));
    assertEquals(0, drainedCount(stream), "t's versions up to the end are not sealed yet");
    plane.execute("CREATE TSS u AS EXTRACT a.x AT '2026-12-02 13:00:00';");
    List<ExtractionAssignment> forU =
        stream.assignments().stream().filter(a -> a.getTss().equals("u")).toList();
    assertEquals(List.of(T), versions(forU));
  }
}
