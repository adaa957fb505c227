package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
        new AppState.Snapshot("a", false, null, null, null, List.of(counter("clicks"))),
        app.snapshot());
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
  void aReconnectOfTheSameAgentReplacesTheOldStreamAndKeepsTheWatermark() {
    AppState app = new AppState("a", List.of(counter("clicks")));
    AppSession first = new AppSession(new RecordedStream());
    assertFalse(app.runsElsewhere(first, "agent-1"), "a disconnected app runs nowhere");
    assertNull(app.connect(first, List.of(counter("clicks")), "agent-1"));
    assertNotNull(app.connectedSince());
    app.reportWatermark(T);
    AppSession second = new AppSession(new RecordedStream());
    assertFalse(app.runsElsewhere(second, "agent-1"), "the same agent on a new stream");
    assertTrue(app.runsElsewhere(second, "agent-2"), "another agent");
    assertTrue(app.runsElsewhere(second, ""), "an agent without an id");
    assertFalse(app.runsElsewhere(first, ""), "registering again on the current stream");
    assertSame(first, app.connect(second, List.of(counter("clicks"), counter("steps")), "agent-1"));
    assertTrue(app.isOn(second));
    assertFalse(app.isOn(first));
    assertEquals(T, app.watermark());
    assertEquals(2, app.states().size());
    assertNull(app.connect(second, List.of(), "agent-1"), "registering again on the same stream");

    assertFalse(app.disconnect(first), "the replaced stream ending must not disconnect the app");
    assertTrue(app.connected());
    assertTrue(app.disconnect(second));
    assertFalse(app.connected());
    assertNull(app.connectedSince());
  }

  @Test
  void withoutAnAgentIdEveryOtherStreamIsAnotherApp() {
    AppState app = new AppState("a", List.of());
    AppSession first = new AppSession(new RecordedStream());
    app.connect(first, List.of(), "");
    assertTrue(app.runsElsewhere(new AppSession(new RecordedStream()), ""));
  }
}
