package io.arcon.portability.execution;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.OrderedListRange;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateAppendResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateClearResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateGetResponse;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateKey;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateRequest;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateResponse;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.fnexecution.state.StateRequestHandler;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Ordered-list user state of a stateful stage ({@code OrderedListState}), in the stage's state
 * backend. The harness sends entries as {@code KV<VarLong sort key, LengthPrefix<value>>}, which
 * delimits itself, so the runner splits appended data into entries without knowing the value's
 * coder, files each raw entry under its sort key, and answers a range read with the entries of that
 * range in sort-key order, concatenated.
 */
final class StageOrderedListUserState implements StateRequestHandler {
  private final StageStateScope scope;
  private final Object lock;

  StageOrderedListUserState(StageStateScope scope, Object lock) {
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
    StateKey.OrderedListUserState key = request.getStateKey().getOrderedListUserState();
    StateNamespace namespace = scope.enter(key.getKey(), key.getWindow());
    OrderedListState<byte[]> list =
        scope
            .keyed()
            .stateInternals()
            .state(
                namespace,
                StateTags.orderedList(
                    key.getTransformId() + "/" + key.getUserStateId() + "/ordered",
                    ByteArrayCoder.of()));
    OrderedListRange range = key.getRange();
    switch (request.getRequestCase()) {
      case GET -> {
        ByteStringOutputStream out = new ByteStringOutputStream();
        for (TimestampedValue<byte[]> entry :
            list.readRange(new Instant(range.getStart()), new Instant(range.getEnd()))) {
          out.write(entry.getValue());
        }
        return StateResponse.newBuilder()
            .setGet(StateGetResponse.newBuilder().setData(out.toByteString()));
      }
      case APPEND -> {
        InputStream in = request.getAppend().getData().newInput();
        while (in.available() > 0) {
          ByteArrayOutputStream entry = new ByteArrayOutputStream();
          long sortKey = VarInt.decodeLong(in);
          VarInt.encode(sortKey, entry);
          int length = VarInt.decodeInt(in);
          VarInt.encode(length, entry);
          byte[] value = in.readNBytes(length);
          if (value.length != length) {
            throw new IOException(
                "An ordered-list entry is cut short: " + value.length + " of " + length + " bytes");
          }
          entry.write(value);
          list.add(TimestampedValue.of(entry.toByteArray(), new Instant(sortKey)));
        }
        return StateResponse.newBuilder().setAppend(StateAppendResponse.getDefaultInstance());
      }
      case CLEAR -> {
        if (key.hasRange()) {
          list.clearRange(new Instant(range.getStart()), new Instant(range.getEnd()));
        } else {
          list.clear();
        }
        return StateResponse.newBuilder().setClear(StateClearResponse.getDefaultInstance());
      }
      default ->
          throw new UnsupportedOperationException(
              "ArconRunner does not serve " + request.getRequestCase() + " for ordered lists");
    }
  }
}
