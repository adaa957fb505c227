package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * Input of a {@code @RequiresStableInput} ParDo while the job takes epochs: an element is processed
 * only once the epoch that contains it is durable, so a restart replays exactly the same input to
 * the DoFn's side effects (as Flink's runner buffers it until the checkpoint completes). Input
 * since the last cut is open; a cut seals it under its epoch; completing an epoch releases every
 * sealed epoch up to it. Sealed input is part of the snapshot of its own epoch, so a restore from
 * that epoch (durable by definition) releases it at once.
 */
final class StableInput<InT> {
  private HeldElements<InT> open = new HeldElements<>();
  private final TreeMap<Long, HeldElements<InT>> sealed = new TreeMap<>();

  void add(byte[] keyBytes, WindowedValue<InT> value) {
    open.add(keyBytes, value);
  }

  /** Epoch {@code epoch} is cut: what arrived so far belongs to it. */
  void seal(long epoch) {
    if (!open.isEmpty()) {
      sealed.put(epoch, open);
      open = new HeldElements<>();
    }
  }

  /** Removes and returns the input of every sealed epoch up to {@code epoch}, oldest first. */
  List<HeldElements.Held<InT>> release(long epoch) {
    List<HeldElements.Held<InT>> released = new ArrayList<>();
    Map<Long, HeldElements<InT>> due = sealed.headMap(epoch, true);
    for (HeldElements<InT> elements : due.values()) {
      released.addAll(elements.drain());
    }
    due.clear();
    return released;
  }

  /** Removes and returns everything, sealed or not, oldest first (the input ended). */
  List<HeldElements.Held<InT>> releaseAll() {
    List<HeldElements.Held<InT>> released = release(Long.MAX_VALUE);
    released.addAll(open.drain());
    return released;
  }

  boolean isEmpty() {
    return open.isEmpty() && sealed.isEmpty();
  }

  /**
   * The smallest timestamp not yet released (it holds the watermark), or {@code Long.MAX_VALUE}.
   */
  long minTimestamp() {
    long min = open.minTimestamp();
    for (HeldElements<InT> elements : sealed.values()) {
      min = Math.min(min, elements.minTimestamp());
    }
    return min;
  }

  /** Writes the sealed input (called right after {@link #seal}, so nothing is open). */
  void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    List<HeldElements.Held<InT>> all = new ArrayList<>();
    for (HeldElements<InT> elements : sealed.values()) {
      all.addAll(elements.elements());
    }
    HeldElements.write(out, coder, all);
  }

  /**
   * Reads the sealed input of a restored epoch: durable, so it is released with the first epoch
   * completion or at once by the caller ({@link #release} of {@code epoch}).
   */
  void readFrom(
      SnapshotReader in,
      Coder<WindowedValue<InT>> coder,
      long epoch,
      int previousInstance,
      int instance,
      int parallelism)
      throws IOException {
    HeldElements<InT> restored = sealed.computeIfAbsent(epoch, e -> new HeldElements<>());
    restored.readFrom(in, coder, previousInstance, instance, parallelism);
    if (restored.isEmpty()) {
      sealed.remove(epoch);
    }
  }
}
