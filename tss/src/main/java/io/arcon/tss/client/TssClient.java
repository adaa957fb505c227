package io.arcon.tss.client;

import io.arcon.tss.TssDefaults;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.DescribeAppRequest;
import io.arcon.tss.proto.DescribeTssRequest;
import io.arcon.tss.proto.DropAppRequest;
import io.arcon.tss.proto.DropTssRequest;
import io.arcon.tss.proto.ServerInfo;
import io.arcon.tss.proto.ServerInfoRequest;
import io.arcon.tss.proto.ShowAppsRequest;
import io.arcon.tss.proto.ShowTssRequest;
import io.arcon.tss.proto.StatementRequest;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.wire.StatementResults;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The client side of the control plane, used by the {@code tss} CLI: list and describe apps, and
 * run TSS statements. Every call fails with a {@link TssClientException} carrying the control
 * plane's reason.
 */
public final class TssClient implements AutoCloseable {
  private static final long CALL_TIMEOUT_SECONDS = 60;
  private static final int MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

  private final String endpoint;
  private final ManagedChannel channel;
  private final TssControlGrpc.TssControlBlockingStub stub;

  private TssClient(String host, int port, String token) {
    this.endpoint = host + ":" + port;
    this.channel =
        NettyChannelBuilder.forAddress(host, port)
            .usePlaintext()
            // DESCRIBE TSS of a long-running periodic TSS lists every version: beyond gRPC's 4 MB.
            .maxInboundMessageSize(MAX_RESPONSE_BYTES)
            .build();
    TssControlGrpc.TssControlBlockingStub base = TssControlGrpc.newBlockingStub(channel);
    this.stub = token == null || token.isEmpty() ? base : base.withInterceptors(bearer(token));
  }

  /**
   * Connects to a control plane. The connection is lazy: an unreachable control plane shows up at
   * the first call.
   *
   * @param token the shared token, or null when the control plane runs without one
   */
  public static TssClient connect(String host, int port, String token) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException(
          "control plane host is empty; use e.g. " + TssDefaults.DEFAULT_HOST);
    }
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException(
          "control plane port "
              + port
              + " is out of range 1..65535 (default "
              + TssDefaults.PORT
              + ")");
    }
    return new TssClient(host, port, token);
  }

  /** Connects to the default loopback control plane without a token. */
  public static TssClient connectDefault() {
    return connect(TssDefaults.DEFAULT_HOST, TssDefaults.PORT, null);
  }

  static ClientInterceptor bearer(String token) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of(TssDefaults.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER),
        "Bearer " + token);
    return MetadataUtils.newAttachHeadersInterceptor(headers);
  }

  public String endpoint() {
    return endpoint;
  }

  /** The registered apps (connected or not). */
  public List<AppSummary> showApps() {
    return call(() -> deadline().showApps(ShowAppsRequest.getDefaultInstance()).getAppsList());
  }

  /** An app's state catalog: the canonical names EXTRACT accepts, with kind and consistency. */
  public AppInfo describeApp(String app) {
    return call(() -> deadline().describeApp(DescribeAppRequest.newBuilder().setApp(app).build()));
  }

  /** Parses and runs one statement of the TSS language on the control plane. */
  public StatementResult execute(String statementText) {
    return call(
        () ->
            StatementResults.fromProto(
                deadline()
                    .execute(StatementRequest.newBuilder().setStatement(statementText).build())));
  }

  public StatementResult createTss(String createStatementText) {
    return call(
        () ->
            StatementResults.fromProto(
                deadline()
                    .createTss(
                        StatementRequest.newBuilder().setStatement(createStatementText).build())));
  }

  public StatementResult showTss() {
    return call(
        () -> StatementResults.fromProto(deadline().showTss(ShowTssRequest.getDefaultInstance())));
  }

  public StatementResult describeTss(String name) {
    return call(
        () ->
            StatementResults.fromProto(
                deadline().describeTss(DescribeTssRequest.newBuilder().setName(name).build())));
  }

  public StatementResult dropTss(String name) {
    return call(
        () ->
            StatementResults.fromProto(
                deadline().dropTss(DropTssRequest.newBuilder().setName(name).build())));
  }

  public StatementResult dropApp(String name) {
    return call(
        () ->
            StatementResults.fromProto(
                deadline().dropApp(DropAppRequest.newBuilder().setName(name).build())));
  }

  /** The control plane's lake and home directories (to read committed versions locally). */
  public ServerInfo serverInfo() {
    return call(() -> deadline().getServerInfo(ServerInfoRequest.getDefaultInstance()));
  }

  private TssControlGrpc.TssControlBlockingStub deadline() {
    return stub.withDeadlineAfter(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  private <T> T call(Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      Status status = e.getStatus();
      String reason =
          status.getDescription() == null ? status.getCode().name() : status.getDescription();
      String message =
          notTheControlPlane(status)
              ? "the endpoint "
                  + endpoint
                  + " answered, but not as a TSS control plane ("
                  + reason
                  + "): check --endpoint (a control plane listens on 47470 unless told otherwise;"
                  + " a web UI's port is not it)"
              : switch (status.getCode()) {
                case UNAVAILABLE ->
                    "cannot reach the TSS control plane at "
                        + endpoint
                        + " ("
                        + reason
                        + "); start one with `tss server` or pass --endpoint host:port";
                case UNAUTHENTICATED ->
                    "the control plane at " + endpoint + " refused the call: " + reason;
                default -> reason;
              };
      throw new TssClientException(message, status.getCode(), e);
    }
  }

  /**
   * Whether the call failed because the other side does not speak gRPC's HTTP/2 (an HTTP/1 server
   * such as a web UI, or another protocol): gRPC then reports a bare "http2 exception".
   */
  private static boolean notTheControlPlane(Status status) {
    String description = status.getDescription() == null ? "" : status.getDescription();
    if (description.toLowerCase(java.util.Locale.ROOT).contains("http2 exception")) {
      return true;
    }
    for (Throwable t = status.getCause(); t != null; t = t.getCause()) {
      if (t.getClass().getSimpleName().equals("Http2Exception")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    channel.shutdown();
    try {
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
