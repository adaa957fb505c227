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
 * timestamp, whose lowest level is exact: a list per millisecond.
 *
 * <p>The buffer's minimum only moves forward: an operator adds only elements at or after its
 * release frontier and releases only elements before it. A radix heap uses that. {@code base} is a
 * lower bound of every buffered timestamp. An element whose timestamp shares all but its lowest
 * {@value #NEAR_BITS} bits with {@code base} goes straight to the <i>near</i> slot of its exact
 * timestamp (so a slot holds one timestamp, in arrival order: a list linked through the elements'
 * slots, so that a near slot costs two ints and a bit: the 1,024 of them take the elements of a
 * second of disorder and watermark lag mostly straight to their place, the rest moving once, at
 * about 18 ns per element added and released against 28 with 64 slots of three arrays each); any
 * other to the <i>far</i> bucket (element slots only, their timestamps being in the slot arrays) of
 * the highest bit above those in which it differs from {@code base}, so the buckets are ordered.
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
  static final int NEAR_BITS = 10;

  private static final int NEAR_SLOTS = 1 << NEAR_BITS;

  private static final int NO_SLOT = -1;

  /**
   * Far bucket {@code i >= 1}: the highest bit of {@code (ts >> NEAR_BITS) ^ (base >> NEAR_BITS)}.
   */
  private static final int FAR_BUCKETS = 65;

  /** Per near slot, the first and last element slot of its list ({@link #NO_SLOT}: empty). */
  private final int[] nearHeads = new int[NEAR_SLOTS];

  private final int[] nearTails = new int[NEAR_SLOTS];

  /** Bit {@code s % 64} of word {@code s / 64} set: near slot {@code s} holds elements. */
  private final long[] nearWords = new long[NEAR_SLOTS / 64];

  /** Bit {@code w} set: {@code nearWords[w]} is not 0. */
  private long nearSummary;

  private final Bucket[] far = new Bucket[FAR_BUCKETS];

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

  /** Per element slot: its timestamp, arrival order and the next slot of its near list. */
  private long[] slotTimestamps = new long[64];

  private long[] slotOrders = new long[64];
  private int[] nextInList = new int[64];
  private int[] freeSlots = new int[64];
  private int freeCount;
  private int slotsUsed;

  HeapTimeSortedInput() {
    Arrays.fill(nearHeads, NO_SLOT);
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
    slotTimestamps[slot] = timestamp;
    slotOrders[slot] = order;
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
      slotTimestamps = Arrays.copyOf(slotTimestamps, capacity);
      slotOrders = Arrays.copyOf(slotOrders, capacity);
      nextInList = Arrays.copyOf(nextInList, capacity);
      freeSlots = Arrays.copyOf(freeSlots, capacity);
    }
    return slotsUsed++;
  }

  /** Puts an element with {@code timestamp >= base} in its near slot or far bucket. */
  private void put(long timestamp, long order, int slot) {
    long differing = (timestamp >> NEAR_BITS) ^ (base >> NEAR_BITS);
    if (differing == 0) {
      int nearSlot = (int) (timestamp & (NEAR_SLOTS - 1));
      nextInList[slot] = NO_SLOT;
      if (nearHeads[nearSlot] == NO_SLOT) {
        nearHeads[nearSlot] = slot;
        nearWords[nearSlot >>> 6] |= 1L << nearSlot;
        nearSummary |= 1L << (nearSlot >>> 6);
      } else {
        nextInList[nearTails[nearSlot]] = slot;
      }
      nearTails[nearSlot] = slot;
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
    long firstTimestamp;
    long firstOrder;
    if (nearSummary != 0) {
      int first = nearHeads[firstNearSlot()];
      firstTimestamp = slotTimestamps[first];
      firstOrder = slotOrders[first];
    } else {
      Bucket first = firstFarBucket();
      firstTimestamp = first.minTimestamp();
      firstOrder = first.minOrder();
    }
    return firstTimestamp != timestamp ? firstTimestamp < timestamp : firstOrder < order;
  }

  /** Whether an element with a timestamp below {@code watermark} is buffered. */
  boolean hasBefore(long watermark) {
    return size > 0 && (watermark == Long.MAX_VALUE || firstTimestamp() < watermark);
  }

  /** The smallest buffered timestamp (the buffer must not be empty). */
  private long firstTimestamp() {
    return nearSummary != 0
        ? slotTimestamps[nearHeads[firstNearSlot()]]
        : firstFarBucket().minTimestamp();
  }

  /** The lowest non-empty near slot (there must be one). */
  private int firstNearSlot() {
    int word = Long.numberOfTrailingZeros(nearSummary);
    return word << 6 | Long.numberOfTrailingZeros(nearWords[word]);
  }

  /** The lowest non-empty far bucket (there must be one). */
  private Bucket firstFarBucket() {
    return far[1 + Long.numberOfTrailingZeros(farNonEmpty)];
  }

  /** Takes the first element out and releases it (the buffer must not be empty). */
  @SuppressWarnings("unchecked")
  void releaseFirst(Release<InT> release) throws Exception {
    if (nearSummary == 0) {
      redistributeLowest();
    }
    int nearSlot = firstNearSlot();
    int slot = nearHeads[nearSlot];
    int next = nextInList[slot];
    nearHeads[nearSlot] = next;
    if (next == NO_SLOT) {
      int word = nearSlot >>> 6;
      nearWords[word] &= ~(1L << nearSlot);
      if (nearWords[word] == 0) {
        nearSummary &= ~(1L << word);
      }
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
    for (int i = 0; i < from.size; i++) {
      int slot = from.slots[i];
      put(slotTimestamps[slot], slotOrders[slot], slot);
    }
    from.clear();
  }

  /** Rebuilds every bucket from a base before all buffered elements. */
  private void rebase(long newBase) {
    int[] all = takeAll();
    base = newBase;
    for (int slot : all) {
      put(slotTimestamps[slot], slotOrders[slot], slot);
    }
  }

  /**
   * Empties every near slot and far bucket and returns the element slots they held, each slot's or
   * bucket's in its order (so elements of one timestamp stay in arrival order).
   */
  private int[] takeAll() {
    int[] all = new int[size];
    int n = 0;
    for (int nearSlot = 0; nearSlot < NEAR_SLOTS; nearSlot++) {
      for (int slot = nearHeads[nearSlot]; slot != NO_SLOT; slot = nextInList[slot]) {
        all[n++] = slot;
      }
      nearHeads[nearSlot] = NO_SLOT;
    }
    Arrays.fill(nearWords, 0);
    nearSummary = 0;
    for (Bucket bucket : far) {
      for (int i = 0; i < bucket.size; i++) {
        all[n++] = bucket.slots[i];
      }
      bucket.clear();
    }
    farNonEmpty = 0;
    return all;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    List<Held> all = new ArrayList<>(size);
    for (int nearSlot = 0; nearSlot < NEAR_SLOTS; nearSlot++) {
      for (int slot = nearHeads[nearSlot]; slot != NO_SLOT; slot = nextInList[slot]) {
        all.add(new Held(slotTimestamps[slot], slotOrders[slot], slot));
      }
    }
    for (Bucket bucket : far) {
      for (int i = 0; i < bucket.size; i++) {
        int slot = bucket.slots[i];
        all.add(new Held(slotTimestamps[slot], slotOrders[slot], slot));
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

  private record Held(long timestamp, long order, int slot) {}

  /**
   * The element slots of one far bucket in the order they came in (their timestamps and orders are
   * in the buffer's slot arrays); a bucket is emptied whole. Keeps the first smallest (timestamp,
   * order), so the buffer's minimum is known without a scan.
   */
  private static final class Bucket {
    int[] slots = new int[16];
    int size;
    private long minTimestamp;
    private long minOrder;

    void append(long timestamp, long order, int slot) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
      }
      slots[size] = slot;
      if (size == 0 || timestamp < minTimestamp) {
        minTimestamp = timestamp;
        minOrder = order;
      }
      size++;
    }

    /** Smallest timestamp (the bucket must not be empty). */
    long minTimestamp() {
      return minTimestamp;
    }

    /** Order of the first element with the smallest timestamp. */
    long minOrder() {
      return minOrder;
    }

    void clear() {
      size = 0;
    }
  }
}
