package io.arcon.portability.execution;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateAppendResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateClearResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateGetResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateRequest;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateResponse;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.fnexecution.state.StateRequestHandler;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString;

/**
 * Multimap user state of a stateful stage (what the Java SDK harness builds MapState, SetState and
 * MultimapState on): values per (key, window, map key) and the map keys per (key, window), kept in
 * the stage's state backend. The runner never decodes map keys or values: a map key is kept as the
 * bytes the harness sent, values as the encoded chunks it appended, and a read returns their
 * concatenation, which is exactly the encoded stream the harness expects.
 */
final class StageMultimapUserState implements StateRequestHandler {
  private static final Coder<List<byte[]>> CHUNKS = ListCoder.of(ByteArrayCoder.of());

  private final StageStateScope scope;
  private final Object lock;

  StageMultimapUserState(StageStateScope scope, Object lock) {
    this.scope = scope;
    this.lock = lock;
  }

  @Override
  public CompletionStage<StateResponse.Builder> handle(StateRequest request) throws Exception {
    synchronized (lock) {
      return CompletableFuture.completedFuture(handleLocked(request));
    }
  }

  private StateResponse.Builder handleLocked(StateRequest request) throws IOException {
    switch (request.getStateKey().getTypeCase()) {
      case MULTIMAP_USER_STATE -> {
        var k = request.getStateKey().getMultimapUserState();
        MapState<byte[], List<byte[]>> map =
            map(k.getTransformId(), k.getUserStateId(), k.getKey(), k.getWindow());
        byte[] mapKey = k.getMapKey().toByteArray();
        return switch (request.getRequestCase()) {
          case GET -> get(map.get(mapKey).read());
          case APPEND -> {
            List<byte[]> chunks = map.get(mapKey).read();
            List<byte[]> updated = chunks == null ? new ArrayList<>() : new ArrayList<>(chunks);
            updated.add(request.getAppend().getData().toByteArray());
            map.put(mapKey, updated);
            yield StateResponse.newBuilder().setAppend(StateAppendResponse.getDefaultInstance());
          }
          case CLEAR -> {
            map.remove(mapKey);
            yield StateResponse.newBuilder().setClear(StateClearResponse.getDefaultInstance());
          }
          default -> throw unsupported(request);
        };
      }
      case MULTIMAP_KEYS_USER_STATE -> {
        var k = request.getStateKey().getMultimapKeysUserState();
        MapState<byte[], List<byte[]>> map =
            map(k.getTransformId(), k.getUserStateId(), k.getKey(), k.getWindow());
        return switch (request.getRequestCase()) {
          case GET -> {
            List<byte[]> mapKeys = new ArrayList<>();
            for (byte[] key : map.keys().read()) {
              mapKeys.add(key);
            }
            yield get(mapKeys);
          }
          case CLEAR -> {
            map.clear();
            yield StateResponse.newBuilder().setClear(StateClearResponse.getDefaultInstance());
          }
          default -> throw unsupported(request);
        };
      }
      default -> throw unsupported(request);
    }
  }

  private MapState<byte[], List<byte[]>> map(
      String transformId, String stateId, ByteString key, ByteString window) throws IOException {
    StateNamespace namespace = scope.enter(key, window);
    return scope
        .keyed()
        .stateInternals()
        .state(
            namespace,
            StateTags.map(transformId + "/" + stateId + "/multimap", ByteArrayCoder.of(), CHUNKS));
  }

  private static StateResponse.Builder get(Iterable<byte[]> chunks) throws IOException {
    ByteStringOutputStream out = new ByteStringOutputStream();
    if (chunks != null) {
      for (byte[] chunk : chunks) {
        out.write(chunk);
      }
    }
    return StateResponse.newBuilder()
        .setGet(StateGetResponse.newBuilder().setData(out.toByteString()));
  }

  private static UnsupportedOperationException unsupported(StateRequest request) {
    return new UnsupportedOperationException(
        "ArconRunner does not serve "
            + request.getRequestCase()
            + " requests for "
            + request.getStateKey().getTypeCase());
  }
}
