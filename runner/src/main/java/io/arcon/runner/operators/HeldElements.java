package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runtime.graph.KeyGroups;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * Input a ParDo holds outside its state backend (pushed back for side inputs, or waiting for a
 * durable epoch under {@code @RequiresStableInput}), each element with the key bytes it arrived
 * under (null on unkeyed input), in arrival order. It goes into epoch snapshots; on a restore at a
 * new parallelism a keyed element goes to the instance owning its key, an unkeyed one to instance
 * {@code previousInstance % parallelism}.
 */
final class HeldElements<InT> {
  /** One held element. */
  record Held<InT>(byte[] keyBytes, WindowedValue<InT> value) {}

  private final List<Held<InT>> elements = new ArrayList<>();

  void add(byte[] keyBytes, WindowedValue<InT> value) {
    elements.add(new Held<>(keyBytes, value));
  }

  boolean isEmpty() {
    return elements.isEmpty();
  }

  int size() {
    return elements.size();
  }

  /** Removes and returns every element, oldest first. */
  List<Held<InT>> drain() {
    List<Held<InT>> all = new ArrayList<>(elements);
    elements.clear();
    return all;
  }

  /** Every element, oldest first, leaving them held. */
  List<Held<InT>> elements() {
    return new ArrayList<>(elements);
  }

  /** The smallest timestamp held, or {@code Long.MAX_VALUE}. */
  long minTimestamp() {
    long min = Long.MAX_VALUE;
    for (Held<InT> held : elements) {
      min = Math.min(min, held.value().getTimestamp().getMillis());
    }
    return min;
  }

  void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    write(out, coder, elements);
  }

  static <InT> void write(
      SnapshotWriter out, Coder<WindowedValue<InT>> coder, List<Held<InT>> elements)
      throws IOException {
    out.writeInt(elements.size());
    for (Held<InT> held : elements) {
      out.writeBoolean(held.keyBytes() != null);
      if (held.keyBytes() != null) {
        out.writeBytes(held.keyBytes());
      }
      out.writeEncoded(coder, held.value());
    }
  }

  /**
   * Reads elements written by {@link #write} and adds those this instance owns.
   *
   * @param previousInstance the instance that wrote them
   */
  void readFrom(
      SnapshotReader in,
      Coder<WindowedValue<InT>> coder,
      int previousInstance,
      int instance,
      int parallelism)
      throws IOException {
    int count = in.readCount("held elements", 2);
    for (int i = 0; i < count; i++) {
      byte[] key = in.readBoolean("key presence") ? in.readBytes("key") : null;
      WindowedValue<InT> value = in.readEncoded(coder, "held element");
      boolean owned =
          key != null
              ? KeyGroups.instanceForKey(key, parallelism) == instance
              : previousInstance % parallelism == instance;
      if (owned) {
        add(key, value);
      }
    }
  }
}
