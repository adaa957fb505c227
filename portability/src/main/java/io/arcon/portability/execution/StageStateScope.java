package io.arcon.portability.execution;

import io.arcon.runner.operators.KeyedStateContext;
import java.io.IOException;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString;
import org.joda.time.Instant;

/**
 * Where a user-state request of the SDK harness reads and writes: it makes the request's key (the
 * nested encoding of the user key) the stage's current key and names the request's window as a
 * state namespace. Callers hold the stage's lock.
 */
final class StageStateScope {
  private final KeyedStateContext<Object> keyed;
  private final StageKeys keys;
  private final Coder<BoundedWindow> windowCoder;

  StageStateScope(
      KeyedStateContext<Object> keyed, StageKeys keys, Coder<BoundedWindow> windowCoder) {
    this.keyed = keyed;
    this.keys = keys;
    this.windowCoder = windowCoder;
  }

  KeyedStateContext<Object> keyed() {
    return keyed;
  }

  /** Makes {@code key} current and returns the namespace of the encoded {@code window}. */
  StateNamespace enter(ByteString key, ByteString window) throws IOException {
    byte[] encodedKey = key.toByteArray();
    keyed.setCurrentKey(encodedKey, keys.decode(encodedKey), Instant.now());
    return StateNamespaces.window(windowCoder, windowCoder.decode(window.newInput()));
  }
}
