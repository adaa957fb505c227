package io.arcon.tss.server;

import io.arcon.tss.proto.AppMessage;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.StatesRead;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.proto.TypeSpec;
import io.arcon.tss.proto.VersionSealed;
import io.arcon.tss.proto.Watermark;
import io.arcon.tss.proto.WrittenFile;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An app speaking the protocol by hand (no agent): lets tests control exactly when it seals,
 * disconnects and reconnects.
 */
final class RawApp implements AutoCloseable {
  private final ManagedChannel channel;
  private final BlockingQueue<ControlMessage> received = new LinkedBlockingQueue<>();

  /** StatesRead messages, apart: they come whenever the set changes, between the others. */
  private final BlockingQueue<StatesRead> statesRead = new LinkedBlockingQueue<>();

  private StreamObserver<AppMessage> requests;

  /**
   * This app's agent instance, sent with every Register as a real agent does: a reconnect then
   * replaces the old stream even while the server has not yet seen that stream end, instead of
   * being refused as a second pipeline of the same name.
   */
  private final String instance = "raw-app-" + java.util.UUID.randomUUID();

  RawApp(int port) {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  /** Opens a new stream (a reconnect when one was open) and registers one INT64-keyed state. */
  RawApp register(String app, String state) throws InterruptedException {
    if (requests != null) {
      requests.onCompleted();
    }
    received.clear();
    statesRead.clear();
    requests =
        TssControlGrpc.newStub(channel)
            .connect(
                new StreamObserver<>() {
                  @Override
                  public void onNext(ControlMessage value) {
                    if (value.hasStatesRead()) {
                      statesRead.add(value.getStatesRead());
                    } else {
                      received.add(value);
                    }
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
    TypeSpec int64 =
        TypeSpec.newBuilder().setPrimitive(io.arcon.tss.proto.PrimitiveType.INT64).build();
    requests.onNext(
        AppMessage.newBuilder()
            .setRegister(
                Register.newBuilder()
                    .setApp(app)
                    .setInstance(instance)
                    .addStates(
                        StateInfo.newBuilder()
                            .setName(state)
                            .setKeyType(int64)
                            .setValueType(int64)))
            .build());
    ControlMessage first = next();
    if (!first.hasRegistered()) {
      throw new IllegalStateException("expected Registered, got " + first);
    }
    return this;
  }

  void watermark(Instant watermark) {
    requests.onNext(
        AppMessage.newBuilder()
            .setWatermark(Watermark.newBuilder().setWatermark(ProtoTime.toProto(watermark)))
            .build());
  }

  ExtractionAssignment nextAssignment() throws InterruptedException {
    ControlMessage message = next();
    if (!message.hasAssignment()) {
      throw new IllegalStateException("expected an assignment, got " + message);
    }
    return message.getAssignment();
  }

  /** The next StatesRead message (the states some TSS reads), waiting for it. */
  StatesRead nextStatesRead() throws InterruptedException {
    StatesRead message = statesRead.poll(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    if (message == null) {
      throw new IllegalStateException("no StatesRead from the control plane");
    }
    return message;
  }

  /** The next StatesRead message, or null if none arrives within {@code millis}. */
  StatesRead pollStatesRead(long millis) throws InterruptedException {
    return statesRead.poll(millis, TimeUnit.MILLISECONDS);
  }

  /** The next message other than StatesRead, or null if none arrives within {@code millis}. */
  ControlMessage poll(long millis) throws InterruptedException {
    return received.poll(millis, TimeUnit.MILLISECONDS);
  }

  private ControlMessage next() throws InterruptedException {
    ControlMessage message = received.poll(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS);
    if (message == null) {
      throw new IllegalStateException("no message from the control plane");
    }
    return message;
  }

  void seal(ExtractionAssignment assignment, String state, String path) {
    requests.onNext(
        AppMessage.newBuilder()
            .setSealed(
                VersionSealed.newBuilder()
                    .setTss(assignment.getTss())
                    .setVersion(assignment.getVersion())
                    .addFiles(WrittenFile.newBuilder().setState(state).setPath(path)))
            .build());
  }

  /** Drops the stream without a goodbye, like a crashed app. */
  void crash() {
    requests.onError(new RuntimeException("app crashed"));
    requests = null;
  }

  @Override
  public void close() {
    if (requests != null) {
      requests.onCompleted();
    }
    channel.shutdownNow();
  }
}
