package io.arcon.portability.jobservice;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** A failure as a client reads it: each throwable of the cause chain on its own line. */
final class FailureText {

  private FailureText() {}

  /**
   * {@code "<class>: <message>"} for {@code failure}, then {@code "Caused by: <class>: <message>"}
   * for each cause. An SDK harness's error arrives as the message of one of these (with the
   * harness's own traceback in it), so the chain is what a user needs; the runner's stack frames
   * stay in the server's log.
   */
  static String of(Throwable failure) {
    StringBuilder text = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t != failure) {
        text.append("\nCaused by: ");
      }
      text.append(t.getClass().getName());
      if (t.getMessage() != null) {
        text.append(": ").append(t.getMessage());
      }
    }
    return text.toString();
  }
}
