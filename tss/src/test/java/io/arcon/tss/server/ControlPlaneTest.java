package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade driven directly, without gRPC: what an app reports reaches the right part. */
class ControlPlaneTest {
  @TempDir Path home;

  private ControlPlane plane;

  @BeforeEach
  void start() {
    LakeLayout lake = LakeLayout.local(home.resolve("lake"));
    plane = new ControlPlane(new CatalogStore(home), lake, new VersionCommitter(lake));
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
        List.of(new AppState.Snapshot("a", false, minutes(6), List.of(counter("x"), counter("y")))),
        plane.showApps());
  }
}
