package io.arcon.tss.server;

import io.arcon.tss.model.StateDescriptor;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * An app the control plane knows: the state catalog it last registered and, while it is connected,
 * its stream, the watermark and history horizon it reported. Connection, watermark and horizon are
 * live facts: after a restart every app is disconnected until it registers and reports them again.
 * That its input ended ({@link #finishedAt}) is kept in the catalog: a finished app may be gone for
 * good, and its TSS must still stop at its last version. Guarded by the control plane's lock.
 */
final class AppState {
  private final String name;
  private List<StateDescriptor> states;
  private AppSession session;
  private String instance = "";
  private Instant connectedSince;
  private Instant watermark;
  private Instant historyFrom;
  private Set<String> recording = Set.of();
  private Instant finishedAt;
  private boolean drainedSent;

  AppState(String name, List<StateDescriptor> states) {
    this(name, states, null);
  }

  /**
   * @param finishedAt when its input ended, from the catalog; null for a live app
   */
  AppState(String name, List<StateDescriptor> states, Instant finishedAt) {
    this.name = name;
    this.states = List.copyOf(states);
    this.finishedAt = finishedAt;
  }

  /**
   * What the control plane shows of an app, taken under the lock.
   *
   * @param watermark the last reported watermark, or null
   * @param historyFrom the oldest extractable version time it reported, or null (no limit)
   * @param finishedAt when its input ended, or null while it is live
   * @param recording the watermark-cut states whose history the app records now
   */
  record Snapshot(
      String name,
      boolean connected,
      Instant watermark,
      Instant historyFrom,
      Instant finishedAt,
      List<StateDescriptor> states,
      Set<String> recording) {
    Snapshot {
      states = List.copyOf(states);
      recording = Set.copyOf(recording);
    }

    /** An app that records no watermark-cut state's history. */
    Snapshot(
        String name,
        boolean connected,
        Instant watermark,
        Instant historyFrom,
        Instant finishedAt,
        List<StateDescriptor> states) {
      this(name, connected, watermark, historyFrom, finishedAt, states, Set.of());
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
   * same agent reconnecting keeps its watermark (the agent reports it again right after registering
   * anyway). Another agent is a new run of the app, whose state starts over or from a checkpoint:
   * its watermark and history are unknown until it reports them, so no version is due for it on the
   * strength of the previous run's watermark (it would read state that has not reached the version
   * yet). A registration is a live app: a finished one that registers again (a restarted pipeline)
   * is live again, and an agent still finishing says Finished again right after registering.
   *
   * @return the stream this one replaces (the same agent reconnected before its old stream timed
   *     out), which the caller ends; null if there is none
   */
  AppSession connect(AppSession newSession, List<StateDescriptor> newStates, String newInstance) {
    AppSession replaced = session != null && session != newSession ? session : null;
    if (!instance.equals(newInstance)) {
      watermark = null;
      historyFrom = null;
    }
    states = List.copyOf(newStates);
    session = newSession;
    instance = newInstance;
    connectedSince = Instant.now();
    // The agent says it again on the new stream.
    recording = Set.of();
    finishedAt = null;
    drainedSent = false;
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
    reportWatermark(newWatermark, null);
  }

  /**
   * @param newHistoryFrom the oldest version time the app can still extract, or null for no limit
   */
  void reportWatermark(Instant newWatermark, Instant newHistoryFrom) {
    watermark = newWatermark;
    historyFrom = newHistoryFrom;
  }

  /** The app records the history of these watermark-cut states now. */
  void recording(Set<String> states) {
    recording = Set.copyOf(states);
  }

  /** The watermark-cut states whose history the app records now (while a TSS reads them). */
  Set<String> recording() {
    return recording;
  }

  /** The oldest version time the app can still extract, or null when it reported no limit. */
  Instant historyFrom() {
    return historyFrom;
  }

  /** The app's input ended at {@code end}: every version at T &gt;= end is its final state. */
  void finish(Instant end) {
    finishedAt = end;
    drainedSent = false;
  }

  /** When the app's input ended, or null while it is live. */
  Instant finishedAt() {
    return finishedAt;
  }

  boolean finished() {
    return finishedAt != null;
  }

  /** Whether Drained was sent on the current stream since the app finished. */
  boolean drainedSent() {
    return drainedSent;
  }

  void markDrainedSent() {
    drainedSent = true;
  }

  /** The last reported watermark, or null if none since the control plane started. */
  Instant watermark() {
    return watermark;
  }

  /**
   * Whether the app's watermark passed {@code version}: every input before it was applied, so the
   * version can be extracted. A finished app has applied all its input: its watermark counts as
   * past every version (the scheduler adds none after its end).
   */
  boolean passed(Instant version) {
    return finishedAt != null || (watermark != null && watermark.isAfter(version));
  }

  Snapshot snapshot() {
    return new Snapshot(name, connected(), watermark, historyFrom, finishedAt, states, recording);
  }
}
