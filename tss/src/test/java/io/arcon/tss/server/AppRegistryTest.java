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
        List.of(new AppState.Snapshot("a", false, null, List.of(counter("clicks")))),
        restarted.snapshots());
  }

  @Test
  void aSecondStreamOfTheSameAppEndsTheFirst() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    RecordedStream firstStream = new RecordedStream();
    AppSession first = new AppSession(firstStream);
    apps.register(first, new Registration("a", List.of()));
    AppSession second = new AppSession(new RecordedStream());
    apps.register(second, new Registration("a", List.of(counter("clicks"))));

    assertEquals(Status.Code.ABORTED, firstStream.failure.getCode());
    assertEquals("app a registered again on a new stream", firstStream.failure.getDescription());
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
