package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DROP TSS while an app extracts one of its versions: the app's files, written after the drop
 * removed the directory, are removed when it reports, and the name is not reused before that.
 */
class DroppedTssTest {
  private static final String CREATE =
      "CREATE TSS t AS EXTRACT a.x AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;";

  @TempDir Path home;

  private LakeLayout lake;
  private ControlPlane plane;
  private RecordedStream stream;
  private AppSession session;

  @BeforeEach
  void start() {
    lake = LakeLayout.local(home.resolve("lake"));
    plane = CatalogFixtures.startedPlane(home, lake);
    stream = new RecordedStream();
    session = CatalogFixtures.register(plane, stream, "a", "x");
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  /** What an app's extraction writes: the state's file under the assignment's directory. */
  private static Path write(ExtractionAssignment assignment) throws IOException {
    Path file = Path.of(URI.create(assignment.getTargetDirectory())).resolve("x/part-0.parquet");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "rows");
    return file;
  }

  private ExtractionAssignment droppedWhileExtracting() {
    plane.execute(CREATE);
    plane.watermark(session, minutes(6));
    List<ExtractionAssignment> assigned = stream.assignments();
    assertEquals(2, assigned.size(), "versions 13:00 and 13:05 are due");
    // The app sealed 13:00; it is still writing 13:05 when the TSS is dropped.
    plane.sealed(
        session,
        "t",
        T,
        List.of(new SealedFile("x", assigned.get(0).getTargetDirectory() + "/x", 1)));
    String dropped = plane.drop("t").message();
    assertTrue(
        dropped.contains("still extracting it: app a (version " + minutes(5) + ")"), dropped);
    return assigned.get(1);
  }

  private void assertNameReserved() {
    ControlPlaneException refused =
        assertThrows(ControlPlaneException.class, () -> plane.execute(CREATE));
    assertEquals(Status.Code.FAILED_PRECONDITION, refused.code());
    assertEquals(
        "TSS t was dropped, but app a (version "
            + minutes(5)
            + ") still extract its versions; their files are removed when they finish. Try"
            + " again in a moment or pick another name",
        refused.getMessage());
  }

  @Test
  void whatASealedExtractionWroteAfterTheDropIsRemovedAndTheNameIsFreeAgain() throws IOException {
    ExtractionAssignment running = droppedWhileExtracting();
    Path file = write(running);
    assertTrue(file.startsWith(home.resolve("lake/t")), file.toString());
    assertNameReserved();

    plane.sealed(
        session,
        "t",
        ProtoTime.toInstant(running.getVersion()),
        List.of(new SealedFile("x", file.toString(), 1)));
    assertFalse(Files.exists(home.resolve("lake/t")), "the late files are removed");
    plane.execute(CREATE);
    assertTrue(Files.exists(home.resolve("lake/t/_definition.json")));
  }

  @Test
  void whatAFailedExtractionLeftIsRemovedToo() throws IOException {
    ExtractionAssignment running = droppedWhileExtracting();
    assertTrue(write(running).startsWith(home.resolve("lake/t")));
    plane.failed(session, "t", ProtoTime.toInstant(running.getVersion()), "interrupted");
    assertFalse(Files.exists(home.resolve("lake/t")));
    plane.execute(CREATE);
  }

  @Test
  void anAppThatLeavesReleasesTheName() throws IOException {
    ExtractionAssignment running = droppedWhileExtracting();
    assertTrue(write(running).startsWith(home.resolve("lake/t")));
    plane.disconnected(session);
    assertFalse(Files.exists(home.resolve("lake/t")));
    plane.execute(CREATE);
  }

  @Test
  void aDropWithNothingRunningFreesTheNameAtOnce() {
    plane.execute(CREATE);
    plane.watermark(session, minutes(1));
    ExtractionAssignment only = stream.assignments().get(0);
    plane.sealed(
        session, "t", T, List.of(new SealedFile("x", only.getTargetDirectory() + "/x", 1)));
    assertEquals("TSS t dropped; removed " + lake.tssDir("t"), plane.drop("t").message());
    plane.execute(CREATE);
  }
}
