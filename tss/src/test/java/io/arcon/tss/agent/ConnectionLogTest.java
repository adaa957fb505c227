package io.arcon.tss.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class ConnectionLogTest {
  private static final Duration SOON = Duration.ofMillis(100);
  private static final Status DOWN = Status.UNAVAILABLE.withDescription("io exception");

  private final ConnectionLog log = new ConnectionLog("clicks", "127.0.0.1:47470");

  @Test
  void eachKindOfTroubleIsReportedOncePerOutageAndRepeatsGoToDebug() {
    assertEquals(
        new ConnectionLog.Entry(
            Level.INFO,
            "no TSS control plane at 127.0.0.1:47470 yet; app clicks retries in the background"),
        log.streamEnded(DOWN, SOON));
    assertEquals(Level.DEBUG, log.streamEnded(DOWN, SOON).level());
    assertEquals(Level.DEBUG, log.streamEnded(DOWN, SOON).level());

    Status refused =
        Status.ALREADY_EXISTS.withDescription(
            "app clicks is already running (connected since 2026-12-02T12:00:00Z); give this"
                + " pipeline another --jobName or stop the other one");
    assertEquals(
        new ConnectionLog.Entry(
            Level.WARN,
            refused.getDescription()
                + " (TSS control plane at 127.0.0.1:47470; app clicks retries in the background"
                + " every PT5S)"),
        log.streamEnded(refused, Duration.ofSeconds(5)));
    assertEquals(Level.DEBUG, log.streamEnded(refused, Duration.ofSeconds(5)).level());
    assertEquals(Level.DEBUG, log.streamEnded(DOWN, SOON).level());

    assertEquals(
        new ConnectionLog.Entry(
            Level.INFO, "app clicks registered with the TSS control plane at 127.0.0.1:47470"),
        log.registered());
    // A new outage is reported again, as a loss this time.
    assertEquals(
        new ConnectionLog.Entry(
            Level.INFO,
            "app clicks lost the TSS control plane at 127.0.0.1:47470; it retries in the"
                + " background"),
        log.streamEnded(DOWN, SOON));
    assertEquals(Level.DEBUG, log.streamEnded(DOWN, SOON).level());
  }

  @Test
  void otherRefusalsAreWarnings() {
    assertEquals(
        new ConnectionLog.Entry(
            Level.WARN,
            "app clicks: the TSS control plane at 127.0.0.1:47470 ended the stream:"
                + " UNAUTHENTICATED: wrong token; it retries in the background"),
        log.streamEnded(Status.UNAUTHENTICATED.withDescription("wrong token"), SOON));
    assertEquals(
        Level.DEBUG,
        log.streamEnded(Status.UNAUTHENTICATED.withDescription("wrong token"), SOON).level());
  }
}
