package io.arcon.tss.agent;

import io.grpc.Status;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.event.Level;

/**
 * How loudly an agent reports trouble with its control plane. A pipeline must run fine without one,
 * so each kind of trouble is reported once per outage (INFO for "not there", WARN for a refusal
 * that needs the user) and its repeats go to DEBUG; registering ends the outage and is reported at
 * INFO.
 */
final class ConnectionLog {
  /** A line to log. */
  record Entry(Level level, String message) {}

  private final String app;
  private final String endpoint;
  private final Set<Status.Code> reportedThisOutage = EnumSet.noneOf(Status.Code.class);
  private boolean everRegistered;

  ConnectionLog(String app, String endpoint) {
    this.app = app;
    this.endpoint = endpoint;
  }

  /**
   * The agent's stream ended (or could not open) with {@code status}; it retries in {@code delay}.
   */
  synchronized Entry streamEnded(Status status, Duration delay) {
    Status.Code code = status.getCode();
    String description = status.getDescription() == null ? code.name() : status.getDescription();
    if (!reportedThisOutage.add(code)) {
      return new Entry(
          Level.DEBUG,
          "app "
              + app
              + ": TSS control plane at "
              + endpoint
              + ": "
              + code
              + ": "
              + description
              + "; retry in "
              + delay);
    }
    return switch (code) {
      case UNAVAILABLE ->
          new Entry(
              Level.INFO,
              everRegistered
                  ? "app "
                      + app
                      + " lost the TSS control plane at "
                      + endpoint
                      + "; it retries in the background"
                  : "no TSS control plane at "
                      + endpoint
                      + " yet; app "
                      + app
                      + " retries in the background");
      case ALREADY_EXISTS ->
          new Entry(
              Level.WARN,
              description
                  + " (TSS control plane at "
                  + endpoint
                  + "; app "
                  + app
                  + " retries in the background every "
                  + delay
                  + ")");
      default ->
          new Entry(
              Level.WARN,
              "app "
                  + app
                  + ": the TSS control plane at "
                  + endpoint
                  + " ended the stream: "
                  + code
                  + ": "
                  + description
                  + "; it retries in the background");
    };
  }

  /** The agent registered: the outage, if any, is over. */
  synchronized Entry registered() {
    everRegistered = true;
    reportedThisOutage.clear();
    return new Entry(
        Level.INFO, "app " + app + " registered with the TSS control plane at " + endpoint);
  }
}
