package io.arcon.portability.execution;

import io.arcon.runner.operators.KeyedStateContext;
import java.util.Iterator;
import java.util.List;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.fnexecution.state.StateRequestHandlers;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString;
import org.joda.time.Instant;

/**
 * User state of a stateful executable stage, kept in the stage's state backend: the SDK harness
 * reads and writes bags (Beam's portable user state is bags) through state requests, which arrive
 * on gRPC threads while the node's thread may touch the same backend, so every access holds the
 * stage's lock. A request's key is the user key encoded in the nested context, the same bytes the
 * stage's keyed input is routed and stored by.
 */
final class StageUserState
    implements StateRequestHandlers.BagUserStateHandlerFactory<ByteString, Object, BoundedWindow> {
  private final KeyedStateContext<Object> keyed;
  private final StageKeys keys;
  private final Object lock;

  StageUserState(KeyedStateContext<Object> keyed, StageKeys keys, Object lock) {
    this.keyed = keyed;
    this.keys = keys;
    this.lock = lock;
  }

  @Override
  public StateRequestHandlers.BagUserStateHandler<ByteString, Object, BoundedWindow> forUserState(
      String transformId,
      String userStateId,
      Coder<ByteString> keyCoder,
      Coder<Object> valueCoder,
      Coder<BoundedWindow> windowCoder) {
    // Stateful steps are never fused with each other, so the state id alone names the state; the
    // transform id keeps two steps apart anyway should that change.
    String stateId = transformId + "/" + userStateId;
    return new StateRequestHandlers.BagUserStateHandler<>() {
      @Override
      public Iterable<Object> get(ByteString key, BoundedWindow window) {
        synchronized (lock) {
          // A read is copied out: the harness consumes it after the lock is released.
          return List.copyOf(toList(bag(key, window).read()));
        }
      }

      @Override
      public void append(ByteString key, BoundedWindow window, Iterator<Object> values) {
        synchronized (lock) {
          BagState<Object> bag = bag(key, window);
          while (values.hasNext()) {
            bag.add(values.next());
          }
        }
      }

      @Override
      public void clear(ByteString key, BoundedWindow window) {
        synchronized (lock) {
          bag(key, window).clear();
        }
      }

      private BagState<Object> bag(ByteString key, BoundedWindow window) {
        byte[] encoded = key.toByteArray();
        keyed.setCurrentKey(encoded, keys.decode(encoded), Instant.now());
        StateNamespace namespace = StateNamespaces.window(windowCoder, window);
        return keyed.stateInternals().state(namespace, StateTags.bag(stateId, valueCoder));
      }
    };
  }

  private static List<Object> toList(Iterable<Object> values) {
    java.util.ArrayList<Object> out = new java.util.ArrayList<>();
    values.forEach(out::add);
    return out;
  }
}
