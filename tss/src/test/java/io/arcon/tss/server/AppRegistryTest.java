package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppRegistryTest {
  @TempDir Path home;

  @Test
  void aRegistrationIsSavedAndComesBackDisconnected() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    AppSession session = new AppSession(new RecordedStream());
    AppState app = apps.register(session, new Registration("a", List.of(counter("clicks"))));
    app.reportWatermark(T);
    assertEquals("a", session.app());
    assertSame(app, apps.requireSession(session));

    AppRegistry restarted = new AppRegistry(new CatalogStore(home));
    assertEquals(
        List.of(new AppState.Snapshot("a", false, null, null, null, List.of(counter("clicks")))),
        restarted.snapshots());
  }

  @Test
  void aSecondAppOfTheSameNameIsRefusedWhileTheFirstIsConnectedAndGetsInOnceItLeft() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    RecordedStream firstStream = new RecordedStream();
    AppSession first = new AppSession(firstStream);
    apps.register(first, new Registration("clicks", List.of(counter("x")), "agent-1"));
    Instant since = apps.get("clicks").connectedSince();

    AppSession second = new AppSession(new RecordedStream());
    ControlPlaneException refused =
        assertThrows(
            ControlPlaneException.class,
            () ->
                apps.register(
                    second, new Registration("clicks", List.of(counter("y")), "agent-2")));
    assertEquals(Status.Code.ALREADY_EXISTS, refused.code());
    assertEquals(
        "app clicks is already running (connected since "
            + since
            + "); give this pipeline another --jobName or stop the other one",
        refused.getMessage());
    // The first keeps its session and its catalog; the refused stream is bound to nothing.
    assertSame(apps.get("clicks"), apps.requireSession(first));
    assertNull(firstStream.failure);
    assertEquals(List.of(counter("x")), apps.get("clicks").states());
    assertNull(second.app());
    assertFalse(apps.disconnected(second));
    assertTrue(apps.get("clicks").connected());

    assertTrue(apps.disconnected(first));
    apps.register(second, new Registration("clicks", List.of(counter("y")), "agent-2"));
    assertSame(apps.get("clicks"), apps.requireSession(second));
    assertEquals(List.of(counter("y")), apps.get("clicks").states());
  }

  @Test
  void theSameAgentOnANewStreamReplacesItsOldStream() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    RecordedStream firstStream = new RecordedStream();
    AppSession first = new AppSession(firstStream);
    apps.register(first, new Registration("a", List.of(), "agent-1"));
    AppSession second = new AppSession(new RecordedStream());
    apps.register(second, new Registration("a", List.of(counter("clicks")), "agent-1"));

    assertEquals(Status.Code.ABORTED, firstStream.failure.getCode());
    assertEquals(
        "app a registered again on a new stream of the same agent",
        firstStream.failure.getDescription());
    ControlPlaneException stale =
        assertThrows(ControlPlaneException.class, () -> apps.requireSession(first));
    assertEquals(Status.Code.FAILED_PRECONDITION, stale.code());
    assertFalse(apps.disconnected(first), "the old stream ending leaves the app connected");
    assertTrue(apps.get("a").connected());
    assertTrue(apps.disconnected(second));
    assertFalse(apps.get("a").connected());
  }

  @Test
  void watermarksAndUnknownApps() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    assertEquals(
        "unknown app 'x'; registered apps: (none — start a pipeline with TSS enabled)",
        assertThrows(ControlPlaneException.class, () -> apps.require("x")).getMessage());
    apps.register(new AppSession(new RecordedStream()), new Registration("a", List.of()));
    apps.register(new AppSession(new RecordedStream()), new Registration("b", List.of()));
    assertEquals("unknown app 'x'; registered apps: a, b", apps.unknownApp("x"));
    apps.get("b").reportWatermark(T.plusSeconds(1));
    assertTrue(apps.anyPassed(List.of("a", "b"), T));
    assertFalse(apps.anyPassed(List.of("a", "c"), T));
    assertNull(apps.get("c"));
  }

  @Test
  void shuttingDownEndsEveryStream() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    RecordedStream stream = new RecordedStream();
    apps.register(new AppSession(stream), new Registration("a", List.of()));
    apps.disconnectAll(Status.UNAVAILABLE.withDescription("bye"));
    assertEquals(Status.Code.UNAVAILABLE, stream.failure.getCode());
    assertFalse(apps.get("a").connected());
  }
}
