package io.arcon.tss.server;

import io.arcon.tss.model.Names;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppMessage;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.DescribeAppRequest;
import io.arcon.tss.proto.DescribeTssRequest;
import io.arcon.tss.proto.DropAppRequest;
import io.arcon.tss.proto.DropTssRequest;
import io.arcon.tss.proto.ResultTable;
import io.arcon.tss.proto.ServerInfo;
import io.arcon.tss.proto.ServerInfoRequest;
import io.arcon.tss.proto.ShowAppsRequest;
import io.arcon.tss.proto.ShowAppsResponse;
import io.arcon.tss.proto.ShowTssRequest;
import io.arcon.tss.proto.StatementRequest;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.proto.VersionFailed;
import io.arcon.tss.proto.VersionSealed;
import io.arcon.tss.proto.Watermark;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.StatementResults;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC face of {@link ControlPlane}: turns messages into calls on plain objects ({@link
 * WireForms}), results back into messages, and refusals into statuses.
 */
final class TssControlService extends TssControlGrpc.TssControlImplBase {
  private static final Logger LOG = LoggerFactory.getLogger(TssControlService.class);

  private final ControlPlane plane;
  private final ServerInfo info;

  TssControlService(ControlPlane plane, ServerInfo info) {
    this.plane = plane;
    this.info = info;
  }

  @Override
  public StreamObserver<AppMessage> connect(StreamObserver<ControlMessage> responses) {
    AppSession session = new AppSession(responses);
    return new StreamObserver<>() {
      @Override
      public void onNext(AppMessage message) {
        try {
          switch (message.getBodyCase()) {
            case REGISTER -> plane.register(session, WireForms.registration(message.getRegister()));
            case WATERMARK -> {
              Watermark watermark = message.getWatermark();
              plane.watermark(
                  session,
                  ProtoTime.toInstant(watermark.getWatermark()),
                  watermark.hasHistoryFrom()
                      ? ProtoTime.toInstant(watermark.getHistoryFrom())
                      : null);
            }
            case RECORDING ->
                plane.recording(session, Set.copyOf(message.getRecording().getStatesList()));
            case FINISHED -> {
              if (!message.getFinished().hasEnd()) {
                throw ControlPlaneException.invalid(
                    "Finished needs end: the first instant after the app's last event");
              }
              plane.finished(session, ProtoTime.toInstant(message.getFinished().getEnd()));
            }
            case SEALED -> {
              VersionSealed sealed = message.getSealed();
              plane.sealed(
                  session,
                  sealed.getTss(),
                  ProtoTime.toInstant(sealed.getVersion()),
                  WireForms.sealedFiles(sealed.getFilesList()));
            }
            case FAILED -> {
              VersionFailed failed = message.getFailed();
              plane.failed(
                  session,
                  failed.getTss(),
                  ProtoTime.toInstant(failed.getVersion()),
                  failed.getReason());
            }
            default ->
                throw ControlPlaneException.invalid(
                    "empty AppMessage: set register, watermark, sealed, failed or finished");
          }
        } catch (ControlPlaneException e) {
          plane.disconnected(session);
          session.fail(Status.fromCode(e.code()).withDescription(e.getMessage()));
        } catch (RuntimeException e) {
          LOG.error("app stream of {} failed", session.app(), e);
          plane.disconnected(session);
          session.fail(Status.INTERNAL.withDescription(e.toString()));
        }
      }

      @Override
      public void onError(Throwable t) {
        plane.disconnected(session);
      }

      @Override
      public void onCompleted() {
        plane.disconnected(session);
        session.complete();
      }
    };
  }

  @Override
  public void showApps(ShowAppsRequest request, StreamObserver<ShowAppsResponse> out) {
    unary(
        out,
        () -> {
          ShowAppsResponse.Builder response = ShowAppsResponse.newBuilder();
          plane.showApps().forEach(app -> response.addApps(WireForms.summary(app)));
          return response.build();
        });
  }

  @Override
  public void describeApp(DescribeAppRequest request, StreamObserver<AppInfo> out) {
    unary(out, () -> WireForms.appInfo(plane.describeApp(request.getApp())));
  }

  @Override
  public void createTss(StatementRequest request, StreamObserver<ResultTable> out) {
    unary(out, () -> StatementResults.toProto(plane.createFromText(request.getStatement())));
  }

  @Override
  public void showTss(ShowTssRequest request, StreamObserver<ResultTable> out) {
    unary(out, () -> StatementResults.toProto(plane.showTss()));
  }

  @Override
  public void describeTss(DescribeTssRequest request, StreamObserver<ResultTable> out) {
    unary(out, () -> StatementResults.toProto(plane.describeTss(request.getName())));
  }

  @Override
  public void dropTss(DropTssRequest request, StreamObserver<ResultTable> out) {
    unary(
        out,
        () -> {
          ControlPlaneException.asInvalid(() -> Names.requireValid(request.getName(), "TSS"));
          return StatementResults.toProto(plane.drop(request.getName()));
        });
  }

  @Override
  public void dropApp(DropAppRequest request, StreamObserver<ResultTable> out) {
    unary(out, () -> StatementResults.toProto(plane.dropApp(request.getName())));
  }

  @Override
  public void execute(StatementRequest request, StreamObserver<ResultTable> out) {
    unary(out, () -> StatementResults.toProto(plane.execute(request.getStatement())));
  }

  @Override
  public void getServerInfo(ServerInfoRequest request, StreamObserver<ServerInfo> out) {
    unary(out, () -> info);
  }

  private static <T> void unary(StreamObserver<T> out, Supplier<T> call) {
    T result;
    try {
      result = call.get();
    } catch (ControlPlaneException e) {
      out.onError(Status.fromCode(e.code()).withDescription(e.getMessage()).asRuntimeException());
      return;
    } catch (RuntimeException e) {
      LOG.error("control plane call failed", e);
      out.onError(Status.INTERNAL.withDescription(e.toString()).asRuntimeException());
      return;
    }
    out.onNext(result);
    out.onCompleted();
  }
}
