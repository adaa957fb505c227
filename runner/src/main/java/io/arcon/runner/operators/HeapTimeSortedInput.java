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
 * A {@link TimeSortedInput} on the Java heap: the elements as they are, in a radix heap keyed by
 * timestamp, whose lowest level is exact.
 *
 * <p>The buffer's minimum only moves forward: an operator adds only elements at or after its
 * release frontier and releases only elements before it. A radix heap uses that. {@code base} is a
 * lower bound of every buffered timestamp. An element whose timestamp shares all but its lowest
 * {@value #NEAR_BITS} bits with {@code base} goes straight to the <i>near</i> slot of its exact
 * timestamp (so a slot holds one timestamp, in arrival order); any other to the <i>far</i> bucket
 * of the highest bit above those in which it differs from {@code base}, so the buckets are ordered.
 * Taking out the first element pops the lowest non-empty near slot; when there is none, the lowest
 * far bucket is spread, one sequential pass, over the near slots and the far buckets below it, from
 * its smallest timestamp as the new base. An element moves at most once per bit of the buffer's
 * time span above the lowest {@value #NEAR_BITS}, and usually once or twice: a plain radix heap,
 * one bucket per bit down to the timestamp itself, moved each element through about ten buckets at
 * a second of disorder, a tenth of an exported pipeline's time. A binary heap of the tens of
 * thousands of elements a skewed input leaves here paid a sift of 17 levels in four arrays, at a
 * cache miss each, per element. Elements of equal timestamp are always in one bucket or slot, in
 * the order they were added, which is their arrival order, and moves keep that order.
 *
 * <p>An element before {@code base} while the buffer is not empty (late input within the allowed
 * lateness, or a caller that releases and adds out of step) rebuilds the buckets from that
 * timestamp: correct in every case, and linear only in that rare one.
 */
final class HeapTimeSortedInput<InT> implements TimeSortedInput<InT> {
  /** Low timestamp bits resolved by the near slots, one slot per timestamp. */
  static final int NEAR_BITS = 6;

  private static final int NEAR_SLOTS = 1 << NEAR_BITS;

  /**
   * Far bucket {@code i >= 1}: the highest bit of {@code (ts >> NEAR_BITS) ^ (base >> NEAR_BITS)}.
   */
  private static final int FAR_BUCKETS = 65;

  private final Bucket[] near = new Bucket[NEAR_SLOTS];
  private final Bucket[] far = new Bucket[FAR_BUCKETS];

  /** Bit {@code s} set: near slot {@code s} holds elements. */
  private long nearNonEmpty;

  /** Bit {@code i - 1} set: far bucket {@code i >= 1} holds elements. */
  private long farNonEmpty;

  private long base = Long.MIN_VALUE;
  private int size;
  private long arrival;

  /**
   * The elements and their keys, each in a slot from when it is added until it is released. The
   * buckets move only (timestamp, order, slot), primitives: with G1 every reference stored into an
   * old array pays a write barrier, and moving the references themselves made the buffer's
   * redistribution cost a third of an exported pipeline's time there.
   */
  private Object[] elements = new Object[64];

  private byte[][] keys = new byte[64][];
  private int[] freeSlots = new int[64];
  private int freeCount;
  private int slotsUsed;

  HeapTimeSortedInput() {
    for (int i = 0; i < NEAR_SLOTS; i++) {
      near[i] = new Bucket();
    }
    for (int i = 0; i < FAR_BUCKETS; i++) {
      far[i] = new Bucket();
    }
  }

  @Override
  public void add(byte[] encodedKey, WindowedValue<InT> element) {
    add(encodedKey, element, arrival++);
  }

  /**
   * Buffers {@code element} with the arrival number {@code order}, for a caller that numbers
   * arrivals across several buffers. Orders must increase from call to call: equal timestamps
   * release in the order they were added.
   */
  void add(byte[] encodedKey, WindowedValue<InT> element, long order) {
    long timestamp = element.getTimestamp().getMillis();
    if (size == 0) {
      base = timestamp;
    } else if (timestamp < base) {
      rebase(timestamp);
    }
    int slot = takeSlot();
    elements[slot] = element;
    keys[slot] = encodedKey;
    put(timestamp, order, slot);
    size++;
  }

  private int takeSlot() {
    if (freeCount > 0) {
      return freeSlots[--freeCount];
    }
    if (slotsUsed == elements.length) {
      int capacity = slotsUsed * 2;
      elements = Arrays.copyOf(elements, capacity);
      keys = Arrays.copyOf(keys, capacity);
      freeSlots = Arrays.copyOf(freeSlots, capacity);
    }
    return slotsUsed++;
  }

  /** Puts an element with {@code timestamp >= base} in its near slot or far bucket. */
  private void put(long timestamp, long order, int slot) {
    long differing = (timestamp >> NEAR_BITS) ^ (base >> NEAR_BITS);
    if (differing == 0) {
      int nearSlot = (int) (timestamp & (NEAR_SLOTS - 1));
      near[nearSlot].append(timestamp, order, slot);
      nearNonEmpty |= 1L << nearSlot;
    } else {
      int index = 64 - Long.numberOfLeadingZeros(differing);
      far[index].append(timestamp, order, slot);
      farNonEmpty |= 1L << (index - 1);
    }
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
    if (size == 0) {
      return false;
    }
    Bucket first = firstBucket();
    long firstTimestamp = first.minTimestamp();
    return firstTimestamp != timestamp ? firstTimestamp < timestamp : first.minOrder() < order;
  }

  /** Whether an element with a timestamp below {@code watermark} is buffered. */
  boolean hasBefore(long watermark) {
    return size > 0 && (watermark == Long.MAX_VALUE || firstBucket().minTimestamp() < watermark);
  }

  /** The lowest non-empty near slot, else far bucket (the buffer must not be empty). */
  private Bucket firstBucket() {
    return nearNonEmpty != 0
        ? near[Long.numberOfTrailingZeros(nearNonEmpty)]
        : far[1 + Long.numberOfTrailingZeros(farNonEmpty)];
  }

  /** Takes the first element out and releases it (the buffer must not be empty). */
  @SuppressWarnings("unchecked")
  void releaseFirst(Release<InT> release) throws Exception {
    if (nearNonEmpty == 0) {
      redistributeLowest();
    }
    int nearSlot = Long.numberOfTrailingZeros(nearNonEmpty);
    Bucket first = near[nearSlot];
    int slot = first.removeHead();
    if (first.isEmpty()) {
      nearNonEmpty &= ~(1L << nearSlot);
    }
    byte[] key = keys[slot];
    WindowedValue<InT> element = (WindowedValue<InT>) elements[slot];
    keys[slot] = null;
    elements[slot] = null;
    freeSlots[freeCount++] = slot;
    size--;
    release.release(key, element);
  }

  /**
   * Moves base up to the smallest timestamp, which is in the lowest non-empty far bucket (the near
   * slots being empty), and spreads that bucket over the near slots and the far buckets below it
   * (all empty), keeping its order.
   */
  private void redistributeLowest() {
    int index = 1 + Long.numberOfTrailingZeros(farNonEmpty);
    Bucket from = far[index];
    farNonEmpty &= ~(1L << (index - 1));
    base = from.minTimestamp();
    for (int i = from.head; i < from.size; i++) {
      put(from.timestamps[i], from.orders[i], from.slots[i]);
    }
    from.clear();
  }

  /** Rebuilds every bucket from a base before all buffered elements. */
  private void rebase(long newBase) {
    Bucket all = new Bucket();
    for (Bucket bucket : allBuckets()) {
      for (int i = bucket.head; i < bucket.size; i++) {
        all.append(bucket.timestamps[i], bucket.orders[i], bucket.slots[i]);
      }
      bucket.clear();
    }
    nearNonEmpty = 0;
    farNonEmpty = 0;
    base = newBase;
    for (int i = 0; i < all.size; i++) {
      put(all.timestamps[i], all.orders[i], all.slots[i]);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    List<Held> all = new ArrayList<>(size);
    for (Bucket bucket : allBuckets()) {
      for (int i = bucket.head; i < bucket.size; i++) {
        all.add(new Held(bucket.timestamps[i], bucket.orders[i], bucket.slots[i]));
      }
    }
    // Arrivals are unique, so (timestamp, arrival) is a total order.
    all.sort(Comparator.comparingLong(Held::timestamp).thenComparingLong(Held::order));
    List<HeldElements.Held<InT>> held = new ArrayList<>(size);
    for (Held h : all) {
      held.add(new HeldElements.Held<>(keys[h.slot()], (WindowedValue<InT>) elements[h.slot()]));
    }
    HeldElements.write(out, coder, held);
  }

  private List<Bucket> allBuckets() {
    List<Bucket> all = new ArrayList<>(NEAR_SLOTS + FAR_BUCKETS);
    all.addAll(Arrays.asList(near));
    all.addAll(Arrays.asList(far));
    return all;
  }

  private record Held(long timestamp, long order, int slot) {}

  /**
   * The (timestamp, order, slot) of one bucket's elements in the order they came in, in parallel
   * arrays; a near slot is taken from the front ({@code head}), a far bucket is emptied whole.
   * Keeps the first smallest (timestamp, order), so the buffer's minimum is known without a scan.
   */
  private static final class Bucket {
    long[] timestamps = new long[16];
    long[] orders = new long[16];
    int[] slots = new int[16];
    int head;
    int size;
    private int min = -1;

    boolean isEmpty() {
      return head == size;
    }

    void append(long timestamp, long order, int slot) {
      if (size == timestamps.length) {
        grow();
      }
      timestamps[size] = timestamp;
      orders[size] = order;
      slots[size] = slot;
      if (min < 0 || timestamp < timestamps[min]) {
        min = size;
      }
      size++;
    }

    private void grow() {
      int live = size - head;
      int capacity = Math.max(16, live * 2);
      if (head > 0 && live <= timestamps.length / 2) {
        capacity = timestamps.length; // compact in place of growing
      }
      timestamps = Arrays.copyOfRange(timestamps, head, head + capacity);
      orders = Arrays.copyOfRange(orders, head, head + capacity);
      slots = Arrays.copyOfRange(slots, head, head + capacity);
      min -= head;
      size = live;
      head = 0;
    }

    /** Smallest timestamp (the bucket must not be empty); in a near slot there is only one. */
    long minTimestamp() {
      return timestamps[min];
    }

    /** Order of the first element with the smallest timestamp. */
    long minOrder() {
      return orders[min];
    }

    /**
     * Drops the first element and returns its slot; only in a near slot, whose elements all have
     * one timestamp.
     */
    int removeHead() {
      int slot = slots[head++];
      if (head == size) {
        clear();
      } else {
        min = head;
      }
      return slot;
    }

    void clear() {
      head = 0;
      size = 0;
      min = -1;
    }
  }
}
