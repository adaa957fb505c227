package io.arcon.tss.server;

import io.arcon.tss.model.StateDescriptor;
import java.time.Instant;
import java.util.List;

/**
 * An app the control plane knows: the state catalog it last registered and, while it is connected,
 * its stream and the watermark it reported. Connection and watermark are live facts: after a
 * restart every app is disconnected until it registers and reports them again. Guarded by the
 * control plane's lock.
 */
final class AppState {
  private final String name;
  private List<StateDescriptor> states;
  private AppSession session;
  private String instance = "";
  private Instant connectedSince;
  private Instant watermark;

  AppState(String name, List<StateDescriptor> states) {
    this.name = name;
    this.states = List.copyOf(states);
  }

  /** What the control plane shows of an app, taken under the lock. */
  record Snapshot(String name, boolean connected, Instant watermark, List<StateDescriptor> states) {
    Snapshot {
      states = List.copyOf(states);
    }
  }

  String name() {
    return name;
  }

  List<StateDescriptor> states() {
    return states;
  }

  /** The registered state named {@code stateName}, or null. */
  StateDescriptor state(String stateName) {
    for (StateDescriptor s : states) {
      if (s.name().equals(stateName)) {
        return s;
      }
    }
    return null;
  }

  /**
   * Whether a registration on {@code stream} from agent {@code otherInstance} comes from another
   * running app of this name: this one is connected on another stream, of another agent.
   */
  boolean runsElsewhere(AppSession stream, String otherInstance) {
    return session != null
        && session != stream
        && (instance.isEmpty() || !instance.equals(otherInstance));
  }

  /** Since when the current stream is connected, or null while disconnected. */
  Instant connectedSince() {
    return connectedSince;
  }

  /**
   * The app registered {@code states} on {@code newSession} from agent {@code newInstance}. The
   * watermark is kept: the agent reports it again right after registering anyway.
   *
   * @return the stream this one replaces (the same agent reconnected before its old stream timed
   *     out), which the caller ends; null if there is none
   */
  AppSession connect(AppSession newSession, List<StateDescriptor> newStates, String newInstance) {
    AppSession replaced = session != null && session != newSession ? session : null;
    states = List.copyOf(newStates);
    session = newSession;
    instance = newInstance;
    connectedSince = Instant.now();
    return replaced;
  }

  /** Whether {@code stream} is the app's current stream. */
  boolean isOn(AppSession stream) {
    return stream != null && session == stream;
  }

  /** The stream ended; ignored if it is not the app's current one. True if the app disconnected. */
  boolean disconnect(AppSession stream) {
    if (isOn(stream)) {
      session = null;
      connectedSince = null;
      return true;
    }
    return false;
  }

  boolean connected() {
    return session != null;
  }

  /** The current stream, or null while disconnected. */
  AppSession session() {
    return session;
  }

  void reportWatermark(Instant newWatermark) {
    watermark = newWatermark;
  }

  /** The last reported watermark, or null if none since the control plane started. */
  Instant watermark() {
    return watermark;
  }

  /**
   * Whether the app's watermark passed {@code version}: every input before it was applied, so the
   * version can be extracted.
   */
  boolean passed(Instant version) {
    return watermark != null && watermark.isAfter(version);
  }

  Snapshot snapshot() {
    return new Snapshot(name, connected(), watermark, states);
  }
}
