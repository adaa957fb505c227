package io.arcon.portability.jobservice;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessage.MessageImportance;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessagesResponse;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobState;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobStateEvent;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Timestamp;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.ServerCallStreamObserver;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.StreamObserver;

/**
 * One job's state changes and messages, in the order they happened, and the streams that follow
 * them. A new stream first gets everything so far, then each event as it happens, and completes
 * after the terminal state. Messages about the end of a job (its failure) are published before the
 * terminal state, because clients stop reading at the terminal state.
 */
final class JobEvents {

  private final String jobId;
  private final List<JobMessagesResponse> events = new ArrayList<>();
  private final List<Subscriber> subscribers = new ArrayList<>();
  private JobStateEvent lastState;
  private long nextMessageId = 1;

  JobEvents(String jobId, JobState.Enum initialState) {
    this.jobId = jobId;
    publishState(initialState);
  }

  synchronized JobStateEvent lastState() {
    return lastState;
  }

  synchronized boolean ended() {
    return isTerminal(lastState.getState());
  }

  /**
   * Records a state change; ignored once the job has ended (a late RUNNING or CANCELLING must not
   * follow DONE).
   */
  synchronized void publishState(JobState.Enum state) {
    if (lastState != null && (isTerminal(lastState.getState()) || lastState.getState() == state)) {
      return;
    }
    Instant now = Instant.now();
    lastState =
        JobStateEvent.newBuilder()
            .setState(state)
            .setTimestamp(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
            .build();
    publish(JobMessagesResponse.newBuilder().setStateResponse(lastState).build());
    if (isTerminal(state)) {
      notifyAll();
      for (Subscriber subscriber : subscribers) {
        subscriber.complete();
      }
      subscribers.clear();
    }
  }

  /** Waits until the job has ended. */
  synchronized void awaitEnd(long timeout, TimeUnit unit)
      throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (!ended()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new TimeoutException("job " + jobId + " has not ended");
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  synchronized void publishMessage(MessageImportance importance, String text) {
    JobApi.JobMessage message =
        JobApi.JobMessage.newBuilder()
            .setMessageId(jobId + "-" + nextMessageId++)
            .setTime(Instant.now().toString())
            .setImportance(importance)
            .setMessageText(text)
            .build();
    publish(JobMessagesResponse.newBuilder().setMessageResponse(message).build());
  }

  /** Streams state changes (GetStateStream). */
  void followStates(StreamObserver<JobStateEvent> observer) {
    follow(new Subscriber(observer, true));
  }

  /** Streams state changes and messages (GetMessageStream). */
  void followMessages(StreamObserver<JobMessagesResponse> observer) {
    follow(new Subscriber(observer, false));
  }

  private synchronized void follow(Subscriber subscriber) {
    subscriber.onCancel(() -> unfollow(subscriber));
    for (JobMessagesResponse event : events) {
      subscriber.send(event);
    }
    if (ended()) {
      subscriber.complete();
      return;
    }
    subscribers.add(subscriber);
  }

  private synchronized void unfollow(Subscriber subscriber) {
    subscribers.remove(subscriber);
  }

  private void publish(JobMessagesResponse event) {
    events.add(event);
    subscribers.removeIf(subscriber -> !subscriber.send(event));
  }

  static boolean isTerminal(JobState.Enum state) {
    return switch (state) {
      case DONE, FAILED, CANCELLED, UPDATED, DRAINED -> true;
      default -> false;
    };
  }

  /** One open stream; sends only under the JobEvents lock, so gRPC sees one caller at a time. */
  private static final class Subscriber {
    private final StreamObserver<?> observer;
    private final boolean statesOnly;

    Subscriber(StreamObserver<?> observer, boolean statesOnly) {
      this.observer = observer;
      this.statesOnly = statesOnly;
    }

    /** False when the stream is gone (the client cancelled it). */
    @SuppressWarnings("unchecked")
    boolean send(JobMessagesResponse event) {
      try {
        if (!statesOnly) {
          ((StreamObserver<JobMessagesResponse>) observer).onNext(event);
        } else if (event.hasStateResponse()) {
          ((StreamObserver<JobStateEvent>) observer).onNext(event.getStateResponse());
        }
        return true;
      } catch (RuntimeException e) {
        // gRPC refuses to send on a cancelled call.
        return false;
      }
    }

    void complete() {
      try {
        observer.onCompleted();
      } catch (RuntimeException e) {
        // Cancelled by the client meanwhile: nothing to complete.
      }
    }

    void onCancel(Runnable handler) {
      if (observer instanceof ServerCallStreamObserver<?> call) {
        call.setOnCancelHandler(handler);
      }
    }
  }
}
