package io.arcon.tss.server;

import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.ExtractionAssignment;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;

/** The server's side of an app stream, kept in memory: what the control plane sent the app. */
final class RecordedStream implements StreamObserver<ControlMessage> {
  final List<ControlMessage> sent = new ArrayList<>();
  Status failure;
  boolean completed;

  @Override
  public synchronized void onNext(ControlMessage message) {
    sent.add(message);
  }

  @Override
  public synchronized void onError(Throwable t) {
    failure = Status.fromThrowable(t);
  }

  @Override
  public synchronized void onCompleted() {
    completed = true;
  }

  synchronized List<ExtractionAssignment> assignments() {
    return sent.stream()
        .filter(ControlMessage::hasAssignment)
        .map(ControlMessage::getAssignment)
        .toList();
  }
}
