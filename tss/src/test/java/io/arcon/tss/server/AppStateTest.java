package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AppStateTest {

  @Test
  void anAppFromTheCatalogIsDisconnectedWithoutAWatermark() {
    AppState app = new AppState("a", List.of(counter("clicks")));
    assertFalse(app.connected());
    assertNull(app.watermark());
    assertFalse(app.passed(T));
    assertEquals(
        new AppState.Snapshot("a", false, null, List.of(counter("clicks"))), app.snapshot());
    assertEquals(counter("clicks"), app.state("clicks"));
    assertNull(app.state("steps"));
  }

  @Test
  void aVersionIsPassedOnlyByALaterWatermark() {
    AppState app = new AppState("a", List.of());
    app.reportWatermark(T);
    assertFalse(app.passed(T), "a version at T holds inputs < T: the watermark must be past it");
    app.reportWatermark(T.plusMillis(1));
    assertTrue(app.passed(T));
  }

  @Test
  void aReconnectReplacesTheOldStreamAndKeepsTheWatermark() {
    AppState app = new AppState("a", List.of(counter("clicks")));
    AppSession first = new AppSession(new RecordedStream());
    assertNull(app.connect(first, List.of(counter("clicks"))));
    app.reportWatermark(T);
    AppSession second = new AppSession(new RecordedStream());
    assertSame(first, app.connect(second, List.of(counter("clicks"), counter("steps"))));
    assertTrue(app.isOn(second));
    assertFalse(app.isOn(first));
    assertEquals(T, app.watermark());
    assertEquals(2, app.states().size());
    assertNull(app.connect(second, List.of()), "registering again on the same stream");

    assertFalse(app.disconnect(first), "the replaced stream ending must not disconnect the app");
    assertTrue(app.connected());
    assertTrue(app.disconnect(second));
    assertFalse(app.connected());
  }
}
