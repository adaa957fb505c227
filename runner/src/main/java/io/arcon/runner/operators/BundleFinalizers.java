package io.arcon.runner.operators;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.joda.time.Instant;

/**
 * Callbacks registered with {@link DoFn.BundleFinalizer}; run once the bundle's output has been
 * handed to the runtime (the bundle is committed), unless they expired.
 */
final class BundleFinalizers implements DoFn.BundleFinalizer {
  private record Pending(Instant expiry, Callback callback) {}

  private final List<Pending> pending = new ArrayList<>();

  @Override
  public void afterBundleCommit(Instant callbackExpiry, Callback callback) {
    pending.add(new Pending(callbackExpiry, callback));
  }

  void finalizeBundle() throws Exception {
    if (pending.isEmpty()) {
      return;
    }
    List<Pending> run = new ArrayList<>(pending);
    pending.clear();
    Instant now = Instant.now();
    for (Pending p : run) {
      if (!now.isAfter(p.expiry())) {
        p.callback().onBundleSuccess();
      }
    }
  }
}
