package io.arcon.tss.server;

import io.arcon.tss.proto.Cancelled;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.Drained;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.proto.Registered;
import io.arcon.tss.proto.StatesRead;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One app's open Connect stream: what the control plane sends an app goes through here. */
final class AppSession {
  private static final Logger LOG = LoggerFactory.getLogger(AppSession.class);

  private final StreamObserver<ControlMessage> out;
  private final Set<String> sentAssignments = new HashSet<>();
  private String app;
  private boolean closed;

  /** The states-read set last sent on this stream; null before the first. */
  private Set<String> sentStatesRead;

  AppSession(StreamObserver<ControlMessage> out) {
    this.out = out;
  }

  synchronized String app() {
    return app;
  }

  synchronized void bind(String appName) {
    this.app = appName;
  }

  /**
   * Answers a Register: the app is registered on this stream.
   *
   * @param embeddedHome the control plane's home if it runs embedded in an app, else empty
   */
  void confirmRegistration(String appName, String embeddedHome) {
    send(
        ControlMessage.newBuilder()
            .setRegistered(
                Registered.newBuilder()
                    .setApp(appName)
                    .setServerTime(ProtoTime.toProto(Instant.now()))
                    .setEmbeddedHome(embeddedHome))
            .build());
  }

  /** Answers Finished: every version due for the app is sealed (or failed). */
  void drained() {
    send(ControlMessage.newBuilder().setDrained(Drained.getDefaultInstance()).build());
  }

  /** Sends which of the app's states some TSS reads, unless this stream was told that already. */
  synchronized void statesRead(Set<String> states) {
    if (states.equals(sentStatesRead)) {
      return;
    }
    sentStatesRead = Set.copyOf(states);
    send(
        ControlMessage.newBuilder()
            .setStatesRead(StatesRead.newBuilder().addAllStates(new TreeSet<>(states)))
            .build());
  }

  /**
   * Sends an extraction assignment unless this stream already got it. A new stream (reconnect)
   * starts empty, so outstanding assignments are sent again.
   *
   * @param keyFilter ON KEY, or null
   */
  synchronized void assign(
      String tss, Instant version, List<String> states, String targetDirectory, String keyFilter) {
    if (!sentAssignments.add(assignmentKey(tss, version))) {
      return;
    }
    ExtractionAssignment.Builder assignment =
        ExtractionAssignment.newBuilder()
            .setTss(tss)
            .setVersion(ProtoTime.toProto(version))
            .addAllStates(states)
            .setTargetDirectory(targetDirectory);
    if (keyFilter != null) {
      assignment.setKeyFilter(keyFilter);
    }
    send(ControlMessage.newBuilder().setAssignment(assignment).build());
  }

  /** The TSS {@code tss} was dropped: the app skips what it has not extracted of it yet. */
  void cancel(String tss) {
    send(ControlMessage.newBuilder().setCancelled(Cancelled.newBuilder().setTss(tss)).build());
  }

  /**
   * A version is final (or its TSS dropped): nothing more will be sent for it, so the stream need
   * not remember it.
   *
   * @return whether this stream had been sent its assignment
   */
  synchronized boolean forget(String tss, Instant version) {
    return sentAssignments.remove(assignmentKey(tss, version));
  }

  private static String assignmentKey(String tss, Instant version) {
    return tss + "@" + version;
  }

  /** StreamObserver is not thread-safe; every write goes through here. */
  synchronized void send(ControlMessage message) {
    if (closed) {
      return;
    }
    try {
      out.onNext(message);
    } catch (RuntimeException e) {
      // The stream is gone (client cancelled); the app re-registers and gets it again.
      LOG.debug("could not send to app {}: {}", app, e.toString());
      closed = true;
    }
  }

  synchronized void fail(Status status) {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.onError(status.asRuntimeException());
    } catch (RuntimeException e) {
      LOG.debug("stream of app {} already closed: {}", app, e.toString());
    }
  }

  synchronized void complete() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.onCompleted();
    } catch (RuntimeException e) {
      LOG.debug("stream of app {} already closed: {}", app, e.toString());
    }
  }
}
