package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * A {@link TimeSortedInput} on the Java heap: the elements as they are, in a binary min-heap
 * ordered by (timestamp, arrival). The heap's order is kept in primitive arrays, so a sift compares
 * longs in place instead of calling a comparator on one object per element.
 */
final class HeapTimeSortedInput<InT> implements TimeSortedInput<InT> {
  private long[] timestamps = new long[64];
  private long[] arrivals = new long[64];
  private byte[][] keys = new byte[64][];
  private Object[] elements = new Object[64];
  private int size;
  private long arrival;

  @Override
  public void add(byte[] encodedKey, WindowedValue<InT> element) {
    add(encodedKey, element, arrival++);
  }

  /**
   * Buffers {@code element} with the arrival number {@code order} (unique; equal timestamps release
   * in its order), for a caller that numbers arrivals across several buffers.
   */
  void add(byte[] encodedKey, WindowedValue<InT> element, long order) {
    if (size == timestamps.length) {
      int capacity = size * 2;
      timestamps = Arrays.copyOf(timestamps, capacity);
      arrivals = Arrays.copyOf(arrivals, capacity);
      keys = Arrays.copyOf(keys, capacity);
      elements = Arrays.copyOf(elements, capacity);
    }
    long timestamp = element.getTimestamp().getMillis();
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(timestamp, order, parent)) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, timestamp, order, encodedKey, element);
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void releaseBefore(long watermark, Release<InT> release) throws Exception {
    while (hasBefore(watermark)) {
      releaseFirst(release);
    }
  }

  /** Whether the first buffered element sorts before (timestamp, order); false when empty. */
  boolean firstBefore(long timestamp, long order) {
    return size > 0 && isBefore(timestamps[0], arrivals[0], timestamp, order);
  }

  /** Whether an element with a timestamp below {@code watermark} is buffered. */
  boolean hasBefore(long watermark) {
    return size > 0 && (watermark == Long.MAX_VALUE || timestamps[0] < watermark);
  }

  /** Takes the first element out and releases it (the buffer must not be empty). */
  @SuppressWarnings("unchecked")
  void releaseFirst(Release<InT> release) throws Exception {
    byte[] key = keys[0];
    WindowedValue<InT> element = (WindowedValue<InT>) elements[0];
    removeFirst();
    release.release(key, element);
  }

  private void removeFirst() {
    int last = --size;
    long timestamp = timestamps[last];
    long order = arrivals[last];
    byte[] key = keys[last];
    Object element = elements[last];
    keys[last] = null;
    elements[last] = null;
    if (last == 0) {
      return;
    }
    int i = 0;
    int half = last >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < last && before(timestamps[right], arrivals[right], child)) {
        child = right;
      }
      if (!isBefore(timestamps[child], arrivals[child], timestamp, order)) {
        break;
      }
      move(child, i);
      i = child;
    }
    set(i, timestamp, order, key, element);
  }

  /** Whether (timestamp, order) sorts before the entry at {@code position}. */
  private boolean before(long timestamp, long order, int position) {
    return isBefore(timestamp, order, timestamps[position], arrivals[position]);
  }

  private static boolean isBefore(long timestamp, long order, long otherTimestamp, long other) {
    return timestamp != otherTimestamp ? timestamp < otherTimestamp : order < other;
  }

  private void move(int from, int to) {
    timestamps[to] = timestamps[from];
    arrivals[to] = arrivals[from];
    keys[to] = keys[from];
    elements[to] = elements[from];
  }

  private void set(int position, long timestamp, long order, byte[] key, Object element) {
    timestamps[position] = timestamp;
    arrivals[position] = order;
    keys[position] = key;
    elements[position] = element;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    // Arrivals are unique, so (timestamp, arrival) is a total order.
    Arrays.sort(
        order,
        Comparator.comparingLong((Integer i) -> timestamps[i]).thenComparingLong(i -> arrivals[i]));
    List<HeldElements.Held<InT>> held = new ArrayList<>(size);
    for (int i : order) {
      held.add(new HeldElements.Held<>(keys[i], (WindowedValue<InT>) elements[i]));
    }
    HeldElements.write(out, coder, held);
  }
}
