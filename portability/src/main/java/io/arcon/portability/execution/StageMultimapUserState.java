package io.arcon.portability.execution;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.apache.beam.sdk.coders.VoidCoder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString;

/**
 * Multimap user state of a stateful stage (what the Java SDK harness builds MapState, SetState and
 * MultimapState on): values per (key, window, map key) and the map keys per (key, window), kept in
 * the stage's state backend. The runner never decodes map keys or values: a map key is kept as the
 * bytes the harness sent, values as the encoded chunks it appended, and a read returns their
 * concatenation, which is exactly the encoded stream the harness expects. Only a read of all
 * entries needs the value coder: the harness decodes it as {@code KV<mapKey, Iterable<V>>}, whose
 * iterable is prefixed with its size, so the runner counts each map key's values by decoding them.
 */
final class StageMultimapUserState implements StateRequestHandler {
  private static final Coder<List<byte[]>> CHUNKS = ListCoder.of(ByteArrayCoder.of());

  private final StageStateScope scope;
  private final StateValueCoders valueCoders;
  private final Object lock;

  StageMultimapUserState(StageStateScope scope, StateValueCoders valueCoders, Object lock) {
    this.scope = scope;
    this.valueCoders = valueCoders;
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
      case MULTIMAP_ENTRIES_USER_STATE -> {
        var k = request.getStateKey().getMultimapEntriesUserState();
        MapState<byte[], List<byte[]>> map =
            map(k.getTransformId(), k.getUserStateId(), k.getKey(), k.getWindow());
        return switch (request.getRequestCase()) {
          case GET -> entries(map, valueCoders.of(k.getTransformId(), k.getUserStateId()));
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

  /**
   * All entries as the harness decodes them: per map key, the key's bytes, then its values as an
   * iterable (a big-endian int count, then the values as appended).
   */
  private static StateResponse.Builder entries(
      MapState<byte[], List<byte[]>> map, Coder<?> valueCoder) throws IOException {
    ByteStringOutputStream out = new ByteStringOutputStream();
    DataOutputStream data = new DataOutputStream(out);
    for (Map.Entry<byte[], List<byte[]>> entry : map.entries().read()) {
      ByteStringOutputStream values = new ByteStringOutputStream();
      for (byte[] chunk : entry.getValue()) {
        values.write(chunk);
      }
      ByteString encodedValues = values.toByteString();
      data.write(entry.getKey());
      data.writeInt(count(valueCoder, encodedValues, entry.getValue().size()));
      encodedValues.writeTo(data);
    }
    data.flush();
    return StateResponse.newBuilder()
        .setGet(StateGetResponse.newBuilder().setData(out.toByteString()));
  }

  private static int count(Coder<?> valueCoder, ByteString encodedValues, int chunks)
      throws IOException {
    if (valueCoder instanceof VoidCoder) {
      // A set's values encode to nothing; the harness reads one per append.
      return chunks;
    }
    InputStream in = encodedValues.newInput();
    int count = 0;
    while (in.available() > 0) {
      valueCoder.decode(in);
      count++;
    }
    return count;
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
