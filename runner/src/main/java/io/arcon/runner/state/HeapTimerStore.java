package io.arcon.runner.state;

import io.arcon.state.ByteKeyHash;
import io.arcon.state.KeyBytes;
import java.util.Arrays;
import java.util.Objects;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.CausedByDrain;
import org.joda.time.Instant;

/**
 * The timers of a transform instance on the heap engine, held in columns: a pending timer is a slot
 * number, and its identity bytes, namespace, ids, times, domain and places in the indexes are
 * entries of arrays. A hash table finds a slot by identity; per time domain a 4-ary min-heap orders
 * the slots by (timestamp, identity), and one heap by output timestamp gives the watermark hold.
 * Each slot knows its place in the table and in its heaps, so replacing, deleting or firing a timer
 * is O(log n) without a search; the earliest timer and the earliest output timestamp are O(1).
 *
 * <p>Why columns and not an object per timer: a batch pipeline's merging GroupByKey (Nexmark's
 * WinningBids) holds a timer per window of every key until its input ends, half a million and more.
 * As objects each took six of its own (the entry, its identity object, a copy of the key, the
 * caller's {@code TimerData} and its two {@code Instant}s) besides the identity bytes, all living
 * for seconds, so every young collection copied them. In columns a timer has one array of its own
 * (its identity, which holds the key); the namespace and the id strings are the caller's objects,
 * referenced, not copied (a namespace is usually the one its window's state uses, ids are
 * constants). A fired timer's {@code TimerData} is built again from the columns, a young object
 * that dies at once. Decoding the namespace from the identity instead, as {@link BackendTimerStore}
 * does, would leave no object at all, but cost a fifth more time in a session GroupByKey's timers.
 *
 * <p>The heap by output timestamp is built only once someone asks for the hold ({@link
 * #minimumOutputTimestamp}): a DoFn's operator does after every bundle, a GroupByKey's never (its
 * timers hold nothing), and upkeep of a heap no one reads was half of the cost of firing a timer in
 * a merging GroupByKey.
 *
 * <p>Why not the tables: a triggered GroupByKey sets, replaces and polls timers for nearly every
 * element, and in {@link BackendTimerStore} each of those is three or four hash probes of long byte
 * keys plus the upkeep of two ordered indexes, about a third of such a pipeline's time. Flink keeps
 * heap-backend timers in memory the same way.
 *
 * <p>Snapshots: the backend's timer tables ({@link BackendTimerStore}) are the snapshot medium, and
 * only that. {@link #beforeSnapshot} writes every pending timer into them and {@link
 * #afterSnapshot} empties them again, once the heap engine has taken its copy; a store made over a
 * restored backend loads the timers out of them and empties them. So the timers are held once, and
 * a snapshot costs O(pending timers), like the rest of a heap snapshot.
 */
final class HeapTimerStore implements TimerStore {
  private static final int NONE = -1;
  private static final int DOMAINS = 3;
  private static final byte DRAIN_BIT = 4;

  /**
   * About the column, table and heap bytes of one timer beyond its identity: five longs' worth of
   * times and ties in the columns and two heaps, four longs of places (hash and slot), three
   * references, and the identity array's header.
   */
  private static final long COLUMN_BYTES_PER_TIMER = 136;

  private final BackendTimerStore tables;
  private final TimerIdentities identities = new TimerIdentities();

  // The columns, indexed by slot. A slot is free when its identity is null.
  private byte[][] identity = new byte[16][];
  private int[] identityHash = new int[16];
  private StateNamespace[] namespace = new StateNamespace[16];
  private String[] timerId = new String[16];
  private String[] timerFamilyId = new String[16];
  private long[] timestamp = new long[16];
  private long[] outputTimestamp = new long[16];

  /** The identity's first eight bytes, big-endian: its order among equal timestamps, mostly. */
  private long[] tie = new long[16];

  /** The domain code in the low two bits, {@link #DRAIN_BIT} when caused by a drain. */
  private byte[] flags = new byte[16];

  private int[] timePosition = new int[16];
  private int[] outputPosition = new int[16];
  private int[] tableSlot = new int[16];

  /** Slots freed by fired or deleted timers, reused first; then slots from {@link #slotsUsed}. */
  private int[] freeSlots = new int[16];

  private int freeCount;
  private int slotsUsed;

  private final SlotTable byIdentity = new SlotTable();
  private final SlotHeap[] byTime = {new SlotHeap(false), new SlotHeap(false), new SlotHeap(false)};
  private final SlotHeap byOutputTime = new SlotHeap(true);

  /**
   * Whether {@link #byOutputTime} holds the timers: from the first {@link #minimumOutputTimestamp}.
   */
  private boolean outputTimesTracked;

  /** The summed length of the pending timers' identities. */
  private long identityBytes;

  HeapTimerStore(BackendTimerStore tables) {
    this.tables = Objects.requireNonNull(tables, "tables");
    tables.forEachTimer(
        (encodedKey, identity, timer) -> insert(identity, ByteKeyHash.hash(identity), timer));
    tables.clear();
  }

  @Override
  public void setTimer(byte[] encodedKey, TimerData timer) {
    byte[] id =
        identities.of(
            encodedKey, timer.getNamespace(), timer.getTimerFamilyId(), timer.getTimerId());
    if (timer.getDeleted()) {
      remove(id);
      return;
    }
    int hash = ByteKeyHash.hash(id);
    int previous = byIdentity.find(id, hash);
    if (previous == NONE) {
      insert(id, hash, timer);
      return;
    }
    byte newFlags = flagsOf(timer);
    long newTimestamp = timer.getTimestamp().getMillis();
    long newOutputTimestamp = timer.getOutputTimestamp().getMillis();
    if (flags[previous] == newFlags
        && timestamp[previous] == newTimestamp
        && outputTimestamp[previous] == newOutputTimestamp) {
      // Re-set at the same place (the per-element GC timer of a GroupByKey): identity and place
      // are every field of the TimerData, so nothing changes.
      return;
    }
    // The same identity: the slot and its table entry stay, only its places in the heaps move.
    removeFromHeaps(previous);
    flags[previous] = newFlags;
    timestamp[previous] = newTimestamp;
    outputTimestamp[previous] = newOutputTimestamp;
    addToHeaps(previous);
  }

  @Override
  public void deleteTimer(
      byte[] encodedKey,
      StateNamespace namespace,
      String timerId,
      String timerFamilyId,
      TimeDomain domain) {
    remove(identities.of(encodedKey, namespace, timerFamilyId, timerId));
  }

  @Override
  public KeyedTimer pollFirstBefore(TimeDomain domain, Instant bound) {
    SlotHeap heap = byTime[BackendTimerStore.domainCode(domain)];
    if (heap.size == 0 || heap.times[0] >= bound.getMillis()) {
      return null;
    }
    int slot = heap.slots[0];
    KeyedTimer fired = new KeyedTimer(TimerIdentities.encodedKey(identity[slot]), timerData(slot));
    release(slot);
    return fired;
  }

  @Override
  public Instant nextTimestamp(TimeDomain domain) {
    SlotHeap heap = byTime[BackendTimerStore.domainCode(domain)];
    return heap.size == 0 ? null : new Instant(heap.times[0]);
  }

  @Override
  public Instant minimumOutputTimestamp() {
    if (!outputTimesTracked) {
      outputTimesTracked = true;
      for (int slot = 0; slot < slotsUsed; slot++) {
        if (identity[slot] != null) {
          byOutputTime.add(slot);
        }
      }
    }
    return byOutputTime.size == 0
        ? BoundedWindow.TIMESTAMP_MAX_VALUE
        : new Instant(byOutputTime.times[0]);
  }

  @Override
  public TimerData getTimer(
      byte[] encodedKey, StateNamespace namespace, String timerId, String timerFamilyId) {
    byte[] id = identities.of(encodedKey, namespace, timerFamilyId, timerId);
    int slot = byIdentity.find(id, ByteKeyHash.hash(id));
    return slot == NONE ? null : timerData(slot, timerId, timerFamilyId, namespace);
  }

  @Override
  public void beforeSnapshot() {
    // Empty already, unless the last snapshot failed between this and afterSnapshot: then rows of
    // timers gone since must not reach this one.
    tables.clear();
    for (int slot = 0; slot < slotsUsed; slot++) {
      if (identity[slot] != null) {
        tables.setTimer(TimerIdentities.encodedKey(identity[slot]), timerData(slot));
      }
    }
  }

  @Override
  public void afterSnapshot() {
    tables.clear();
  }

  /**
   * About {@value #COLUMN_BYTES_PER_TIMER} bytes of columns, table and heap entries per timer plus
   * its identity's bytes.
   */
  @Override
  public long approximateSizeBytes() {
    return byIdentity.size * COLUMN_BYTES_PER_TIMER + identityBytes;
  }

  /** Adds a timer whose identity the store does not hold. */
  private void insert(byte[] id, int hash, TimerData timer) {
    int slot = allocate();
    identity[slot] = id;
    identityHash[slot] = hash;
    namespace[slot] = timer.getNamespace();
    timerId[slot] = timer.getTimerId();
    timerFamilyId[slot] = timer.getTimerFamilyId();
    tie[slot] = OrderedBytes.readRawLong(id, 0);
    flags[slot] = flagsOf(timer);
    timestamp[slot] = timer.getTimestamp().getMillis();
    outputTimestamp[slot] = timer.getOutputTimestamp().getMillis();
    byIdentity.insert(slot);
    addToHeaps(slot);
  }

  private void remove(byte[] id) {
    int slot = byIdentity.find(id, ByteKeyHash.hash(id));
    if (slot != NONE) {
      release(slot);
    }
  }

  /** Takes a pending timer out of the table and the heaps and frees its slot. */
  private void release(int slot) {
    byIdentity.remove(slot);
    removeFromHeaps(slot);
    identity[slot] = null;
    namespace[slot] = null;
    timerId[slot] = null;
    timerFamilyId[slot] = null;
    if (freeCount == freeSlots.length) {
      freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
    }
    freeSlots[freeCount++] = slot;
  }

  private int allocate() {
    if (freeCount > 0) {
      return freeSlots[--freeCount];
    }
    if (slotsUsed == identity.length) {
      int capacity = slotsUsed * 2;
      identity = Arrays.copyOf(identity, capacity);
      identityHash = Arrays.copyOf(identityHash, capacity);
      namespace = Arrays.copyOf(namespace, capacity);
      timerId = Arrays.copyOf(timerId, capacity);
      timerFamilyId = Arrays.copyOf(timerFamilyId, capacity);
      timestamp = Arrays.copyOf(timestamp, capacity);
      outputTimestamp = Arrays.copyOf(outputTimestamp, capacity);
      tie = Arrays.copyOf(tie, capacity);
      flags = Arrays.copyOf(flags, capacity);
      timePosition = Arrays.copyOf(timePosition, capacity);
      outputPosition = Arrays.copyOf(outputPosition, capacity);
      tableSlot = Arrays.copyOf(tableSlot, capacity);
    }
    return slotsUsed++;
  }

  private void addToHeaps(int slot) {
    identityBytes += identity[slot].length;
    byTime[flags[slot] & 3].add(slot);
    if (outputTimesTracked) {
      byOutputTime.add(slot);
    }
  }

  private void removeFromHeaps(int slot) {
    identityBytes -= identity[slot].length;
    byTime[flags[slot] & 3].remove(slot);
    if (outputTimesTracked) {
      byOutputTime.remove(slot);
    }
  }

  private static byte flagsOf(TimerData timer) {
    int drain = timer.causedByDrain() == CausedByDrain.CAUSED_BY_DRAIN ? DRAIN_BIT : 0;
    return (byte) (BackendTimerStore.domainCode(timer.getDomain()) | drain);
  }

  /** The slot's timer. */
  private TimerData timerData(int slot) {
    return timerData(slot, timerId[slot], timerFamilyId[slot], namespace[slot]);
  }

  /** The slot's timer with these ids and namespace (equal to the slot's). */
  private TimerData timerData(
      int slot, String timerId, String timerFamilyId, StateNamespace namespace) {
    Instant time = new Instant(timestamp[slot]);
    Instant outputTime =
        outputTimestamp[slot] == timestamp[slot] ? time : new Instant(outputTimestamp[slot]);
    return TimerData.of(
        timerId,
        timerFamilyId,
        namespace,
        time,
        outputTime,
        DOMAIN_OF_CODE[flags[slot] & 3],
        (flags[slot] & DRAIN_BIT) != 0 ? CausedByDrain.CAUSED_BY_DRAIN : CausedByDrain.NORMAL);
  }

  private static final TimeDomain[] DOMAIN_OF_CODE = new TimeDomain[DOMAINS];

  static {
    for (TimeDomain domain : TimeDomain.values()) {
      DOMAIN_OF_CODE[BackendTimerStore.domainCode(domain)] = domain;
    }
  }

  /**
   * The pending slots by identity: open addressing with linear probing over slot numbers, each slot
   * knowing its place ({@link #tableSlot}). Why not a {@code HashMap}: a fired timer leaves by its
   * place, with no hashing or comparing of its identity (a tenth of a merging GroupByKey's time
   * went to {@code HashMap.remove} in firing); removal shifts back the entries of the probe run
   * that follows, so there are no tombstones.
   */
  private final class SlotTable {
    /**
     * Per place, the slot's identity hash (high 32 bits) and its number + 1 (low 32 bits); 0 is
     * empty. One array, so that a probe reads one cache line per place, not one in each of two
     * arrays: with many timers (10k keys' windows) every probe missed the caches twice.
     */
    private long[] places = new long[16];

    private int size;

    int find(byte[] id, int hash) {
      int mask = places.length - 1;
      for (int i = home(hash, mask); ; i = (i + 1) & mask) {
        long entry = places[i];
        if (entry == 0) {
          return NONE;
        }
        if ((int) (entry >>> 32) == hash) {
          int slot = (int) entry - 1;
          if (Arrays.equals(identity[slot], id)) {
            return slot;
          }
        }
      }
    }

    /** Adds a slot whose identity the table does not hold. */
    void insert(int slot) {
      if (2 * (size + 1) > places.length) {
        grow();
      }
      place(slot);
      size++;
    }

    void remove(int slot) {
      int mask = places.length - 1;
      int free = tableSlot[slot];
      places[free] = 0;
      size--;
      // Backward shift: an entry later in the run moves into the free place unless its home lies
      // cyclically after the free place (then moving it would put it before its home).
      for (int i = (free + 1) & mask; places[i] != 0; i = (i + 1) & mask) {
        int home = home((int) (places[i] >>> 32), mask);
        boolean stays = free <= i ? free < home && home <= i : free < home || home <= i;
        if (!stays) {
          places[free] = places[i];
          tableSlot[(int) places[free] - 1] = free;
          places[i] = 0;
          free = i;
        }
      }
    }

    private void place(int slot) {
      int mask = places.length - 1;
      int hash = identityHash[slot];
      int i = home(hash, mask);
      while (places[i] != 0) {
        i = (i + 1) & mask;
      }
      places[i] = ((long) hash << 32) | (slot + 1L);
      tableSlot[slot] = i;
    }

    private void grow() {
      long[] old = places;
      places = new long[old.length * 2];
      for (long entry : old) {
        if (entry != 0) {
          place((int) entry - 1);
        }
      }
    }

    private static int home(int hash, int mask) {
      return (hash ^ (hash >>> 16)) & mask;
    }
  }

  /**
   * A 4-ary min-heap of slots that records each slot's position in it: by (timestamp, identity) for
   * a domain's firing order, or by output timestamp alone for the hold (only its minimum is read).
   *
   * <p>Laid out for cache misses, which is what a heap of a million timers costs: the times and the
   * identities' first eight bytes sit in the heap's own arrays, so a sift compares longs in place
   * and reads an identity only to break a tie that those bytes leave (keys with a long common
   * prefix); four children share a cache line and the heap is half as deep as a binary one.
   * Draining a million timers of one timestamp (every key's end-of-window timer) spent a fifth of a
   * per-element-state run in a binary heap that compared identities through objects.
   */
  private final class SlotHeap {
    private static final int ARITY = 4;

    private final boolean byOutput;
    private int[] slots = new int[16];
    private long[] times = new long[16];
    private long[] ties = new long[16];
    private int size;

    SlotHeap(boolean byOutput) {
      this.byOutput = byOutput;
    }

    void add(int slot) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
        times = Arrays.copyOf(times, size * 2);
        ties = Arrays.copyOf(ties, size * 2);
      }
      siftUp(size++, slot, byOutput ? outputTimestamp[slot] : timestamp[slot]);
    }

    void remove(int slot) {
      int position = position(slot);
      int last = --size;
      int moved = slots[last];
      long movedTime = times[last];
      setPosition(slot, NONE);
      if (position == last) {
        return;
      }
      if (position > 0 && precedes(movedTime, moved, (position - 1) / ARITY)) {
        siftUp(position, moved, movedTime);
      } else {
        siftDown(position, moved, movedTime);
      }
    }

    private void siftUp(int position, int slot, long time) {
      while (position > 0) {
        int parent = (position - 1) / ARITY;
        if (!precedes(time, slot, parent)) {
          break;
        }
        place(position, slots[parent], times[parent]);
        position = parent;
      }
      place(position, slot, time);
    }

    private void siftDown(int position, int slot, long time) {
      while (true) {
        int firstChild = ARITY * position + 1;
        if (firstChild >= size) {
          break;
        }
        int best = firstChild;
        int end = Math.min(firstChild + ARITY, size);
        for (int child = firstChild + 1; child < end; child++) {
          if (precedes(times[child], slots[child], best)) {
            best = child;
          }
        }
        if (!precedes(times[best], slots[best], time, slot)) {
          break;
        }
        place(position, slots[best], times[best]);
        position = best;
      }
      place(position, slot, time);
    }

    /** Whether (time, slot) sorts before the slot at {@code position}. */
    private boolean precedes(long time, int slot, int position) {
      if (time != times[position] || byOutput) {
        return time < times[position];
      }
      if (tie[slot] != ties[position]) {
        return Long.compareUnsigned(tie[slot], ties[position]) < 0;
      }
      return KeyBytes.compare(identity[slot], identity[slots[position]]) < 0;
    }

    /** Whether (time, slot) sorts before (otherTime, other). */
    private boolean precedes(long time, int slot, long otherTime, int other) {
      if (time != otherTime || byOutput) {
        return time < otherTime;
      }
      if (tie[slot] != tie[other]) {
        return Long.compareUnsigned(tie[slot], tie[other]) < 0;
      }
      return KeyBytes.compare(identity[slot], identity[other]) < 0;
    }

    private void place(int position, int slot, long time) {
      slots[position] = slot;
      times[position] = time;
      ties[position] = tie[slot];
      setPosition(slot, position);
    }

    private int position(int slot) {
      return byOutput ? outputPosition[slot] : timePosition[slot];
    }

    private void setPosition(int slot, int position) {
      if (byOutput) {
        outputPosition[slot] = position;
      } else {
        timePosition[slot] = position;
      }
    }
  }
}
