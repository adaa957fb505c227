package io.arcon.tss.cli;

import com.google.protobuf.Timestamp;
import io.arcon.tss.proto.AppMessage;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.PrimitiveType;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.StateKind;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.proto.TypeSpec;
import io.arcon.tss.proto.Watermark;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** Runs the CLI in-process and registers synthetic apps over the real gRPC protocol. */
final class CliTestSupport {
  private CliTestSupport() {}

  record Run(int exitCode, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new TssCli());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new Run(
        code,
        out.toString().replace(System.lineSeparator(), "\n"),
        err.toString().replace(System.lineSeparator(), "\n"));
  }

  /** An app connected to the control plane, as the app-side agent would be. */
  static final class SyntheticApp implements AutoCloseable {
    private final ManagedChannel channel;
    private final StreamObserver<AppMessage> toServer;
    final CompletableFuture<ControlMessage> registered = new CompletableFuture<>();

    SyntheticApp(int port, String app, String... states) throws Exception {
      channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      toServer =
          TssControlGrpc.newStub(channel)
              .connect(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ControlMessage message) {
                      if (message.hasRegistered()) {
                        registered.complete(message);
                      }
                    }

                    @Override
                    public void onError(Throwable t) {
                      registered.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {}
                  });
      Register.Builder register = Register.newBuilder().setApp(app);
      TypeSpec string = TypeSpec.newBuilder().setPrimitive(PrimitiveType.STRING).build();
      TypeSpec int64 = TypeSpec.newBuilder().setPrimitive(PrimitiveType.INT64).build();
      for (String state : states) {
        register.addStates(
            StateInfo.newBuilder()
                .setName(state)
                .setTransform("Count")
                .setStateId(state)
                .setKind(StateKind.VALUE)
                .setKeyType(string)
                .setValueType(int64)
                .setBackend("rocksdb")
                .setConsistency(Consistency.EXACT));
      }
      toServer.onNext(AppMessage.newBuilder().setRegister(register).build());
      registered.get(30, TimeUnit.SECONDS);
    }

    void watermark(Instant watermark) {
      toServer.onNext(
          AppMessage.newBuilder()
              .setWatermark(
                  Watermark.newBuilder()
                      .setWatermark(
                          Timestamp.newBuilder()
                              .setSeconds(watermark.getEpochSecond())
                              .setNanos(watermark.getNano())))
              .build());
    }

    @Override
    public void close() throws InterruptedException {
      toServer.onCompleted();
      channel.shutdown();
      channel.awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
