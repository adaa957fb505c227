package io.arcon.runner.state;

import io.arcon.state.ByteKeyHash;
import io.arcon.state.KeyBytes;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The timers of a transform instance on the heap engine, as objects: a hash table by identity and,
 * per time domain, a 4-ary min-heap by (timestamp, identity), plus one heap by output timestamp for
 * the watermark hold. Each entry knows its place in the table and in its heaps, so replacing,
 * deleting or firing a timer is O(log n) without a search; the earliest timer and the earliest
 * output timestamp are O(1).
 *
 * <p>The heap by output timestamp is built only once someone asks for the hold ({@link
 * #minimumOutputTimestamp}): a DoFn's operator does after every bundle, a GroupByKey's never (its
 * timers hold nothing), and upkeep of a heap no one reads was half of the cost of firing a timer in
 * a merging GroupByKey.
 *
 * <p>Why not the tables: a triggered GroupByKey sets, replaces and polls timers for nearly every
 * element, and in {@link BackendTimerStore} each of those is three or four hash probes of long byte
 * keys plus the upkeep of two ordered indexes, about a third of such a pipeline's time. Flink keeps
 * heap-backend timers the same way.
 *
 * <p>Snapshots: the backend's timer tables ({@link BackendTimerStore}) are the snapshot medium, and
 * only that. {@link #beforeSnapshot} writes every pending timer into them and {@link
 * #afterSnapshot} empties them again, once the heap engine has taken its copy; a store made over a
 * restored backend loads the timers out of them and empties them. So the timers are held once, and
 * a snapshot costs O(pending timers), like the rest of a heap snapshot.
 */
final class HeapTimerStore implements TimerStore {
  private final BackendTimerStore tables;
  private final TimerIdentities identities = new TimerIdentities();
  private final EntryTable byIdentity = new EntryTable();
  private final EntryHeap[] byTime = {
    new EntryHeap(false), new EntryHeap(false), new EntryHeap(false)
  };
  private final EntryHeap byOutputTime = new EntryHeap(true);

  /**
   * Whether {@link #byOutputTime} holds the timers: from the first {@link #minimumOutputTimestamp}.
   */
  private boolean outputTimesTracked;

  private static final long OBJECT_BYTES_PER_TIMER = 280;

  /** The summed length of the pending timers' identities. */
  private long identityBytes;

  HeapTimerStore(BackendTimerStore tables) {
    this.tables = Objects.requireNonNull(tables, "tables");
    tables.forEachTimer(
        (encodedKey, identity, timer) -> {
          Entry entry = new Entry(new Identity(identity), encodedKey, timer);
          byIdentity.insert(entry);
          add(entry);
        });
    tables.clear();
  }

  @Override
  public void setTimer(byte[] encodedKey, TimerData timer) {
    Identity identity =
        new Identity(
            identities.of(
                encodedKey, timer.getNamespace(), timer.getTimerFamilyId(), timer.getTimerId()));
    if (timer.getDeleted()) {
      remove(identity);
      return;
    }
    Entry previous = byIdentity.find(identity);
    if (previous != null) {
      if (previous.domain == BackendTimerStore.domainCode(timer.getDomain())
          && previous.timestamp == timer.getTimestamp().getMillis()
          && previous.outputTimestamp == timer.getOutputTimestamp().getMillis()) {
        // Re-set at the same place (the per-element GC timer of a GroupByKey): identity and place
        // are every field of the TimerData, so nothing changes.
        return;
      }
      removeFromHeaps(previous);
    }
    // A copy: the caller's array is its current key, which it does not promise to keep unchanged.
    Entry entry = new Entry(identity, encodedKey.clone(), timer);
    if (previous != null) {
      byIdentity.replace(previous, entry);
    } else {
      byIdentity.insert(entry);
    }
    add(entry);
  }

  @Override
  public void deleteTimer(
      byte[] encodedKey,
      StateNamespace namespace,
      String timerId,
      String timerFamilyId,
      TimeDomain domain) {
    remove(new Identity(identities.of(encodedKey, namespace, timerFamilyId, timerId)));
  }

  @Override
  public KeyedTimer pollFirstBefore(TimeDomain domain, Instant bound) {
    EntryHeap heap = byTime[BackendTimerStore.domainCode(domain)];
    Entry first = heap.first();
    if (first == null || first.timestamp >= bound.getMillis()) {
      return null;
    }
    byIdentity.remove(first);
    removeFromHeaps(first);
    return new KeyedTimer(first.encodedKey, first.timer);
  }

  @Override
  public Instant nextTimestamp(TimeDomain domain) {
    Entry first = byTime[BackendTimerStore.domainCode(domain)].first();
    return first == null ? null : first.timer.getTimestamp();
  }

  @Override
  public Instant minimumOutputTimestamp() {
    if (!outputTimesTracked) {
      outputTimesTracked = true;
      byIdentity.forEach(byOutputTime::add);
    }
    Entry first = byOutputTime.first();
    return first == null ? BoundedWindow.TIMESTAMP_MAX_VALUE : first.timer.getOutputTimestamp();
  }

  @Override
  public TimerData getTimer(
      byte[] encodedKey, StateNamespace namespace, String timerId, String timerFamilyId) {
    Entry entry =
        byIdentity.find(new Identity(identities.of(encodedKey, namespace, timerFamilyId, timerId)));
    return entry == null ? null : entry.timer;
  }

  @Override
  public void beforeSnapshot() {
    // Empty already, unless the last snapshot failed between this and afterSnapshot: then rows of
    // timers gone since must not reach this one.
    tables.clear();
    byIdentity.forEach(entry -> tables.setTimer(entry.encodedKey, entry.timer));
  }

  @Override
  public void afterSnapshot() {
    tables.clear();
  }

  /**
   * About {@value #OBJECT_BYTES_PER_TIMER} bytes of objects per timer (the entry, its identity, the
   * map's node, the TimerData with its id string, four heap slots) plus its identity's bytes.
   */
  @Override
  public long approximateSizeBytes() {
    return byIdentity.size() * OBJECT_BYTES_PER_TIMER + identityBytes;
  }

  private void remove(Identity identity) {
    Entry entry = byIdentity.find(identity);
    if (entry != null) {
      byIdentity.remove(entry);
      removeFromHeaps(entry);
    }
  }

  private void add(Entry entry) {
    identityBytes += entry.identityLength;
    byTime[entry.domain].add(entry);
    if (outputTimesTracked) {
      byOutputTime.add(entry);
    }
  }

  private void removeFromHeaps(Entry entry) {
    identityBytes -= entry.identityLength;
    byTime[entry.domain].remove(entry);
    if (outputTimesTracked) {
      byOutputTime.remove(entry);
    }
  }

  /** Identity bytes with their hash, as a hash-map key. */
  private static final class Identity {
    final byte[] bytes;
    private final int hash;

    Identity(byte[] bytes) {
      this.bytes = bytes;
      this.hash = ByteKeyHash.hash(bytes);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Identity that
          && hash == that.hash
          && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** A pending timer and its places in the heaps. */
  private static final class Entry {
    final Identity identity;
    final byte[] encodedKey;
    final TimerData timer;
    final int domain;
    final long timestamp;
    final long outputTimestamp;

    /** The identity's first eight bytes, big-endian: its order among equal timestamps, mostly. */
    final long tie;

    /** The identity's length, kept here: reading it through the identity was two cache misses. */
    final int identityLength;

    int timePosition = -1;
    int outputPosition = -1;

    /** The entry's slot in {@link EntryTable}. */
    int tableSlot = -1;

    Entry(Identity identity, byte[] encodedKey, TimerData timer) {
      this.identity = identity;
      this.encodedKey = encodedKey;
      this.timer = timer;
      this.domain = BackendTimerStore.domainCode(timer.getDomain());
      this.timestamp = timer.getTimestamp().getMillis();
      this.outputTimestamp = timer.getOutputTimestamp().getMillis();
      this.tie = OrderedBytes.readRawLong(identity.bytes, 0);
      this.identityLength = identity.bytes.length;
    }
  }

  /**
   * The pending entries by identity: open addressing with linear probing, each entry knowing its
   * slot. Why not a {@code HashMap}: a fired timer leaves by its slot, with no hashing or comparing
   * of its identity and no map node to reach (a tenth of a merging GroupByKey's time went to {@code
   * HashMap.remove} in firing); removal shifts back the entries of the probe run that follows, so
   * there are no tombstones.
   */
  private static final class EntryTable {
    private Entry[] slots = new Entry[16];
    private int[] hashes = new int[16];
    private int size;

    int size() {
      return size;
    }

    Entry find(Identity identity) {
      int mask = slots.length - 1;
      for (int i = home(identity.hash, mask); ; i = (i + 1) & mask) {
        Entry entry = slots[i];
        if (entry == null) {
          return null;
        }
        if (hashes[i] == identity.hash && Arrays.equals(entry.identity.bytes, identity.bytes)) {
          return entry;
        }
      }
    }

    /** Adds an entry whose identity the table does not hold. */
    void insert(Entry entry) {
      if (2 * (size + 1) > slots.length) {
        grow();
      }
      place(entry);
      size++;
    }

    /** Puts {@code entry} where {@code previous}, of the same identity, was. */
    void replace(Entry previous, Entry entry) {
      int slot = previous.tableSlot;
      slots[slot] = entry;
      entry.tableSlot = slot;
      previous.tableSlot = -1;
    }

    void remove(Entry entry) {
      int mask = slots.length - 1;
      int free = entry.tableSlot;
      entry.tableSlot = -1;
      slots[free] = null;
      size--;
      // Backward shift: an entry later in the run moves into the free slot unless its home lies
      // cyclically after the free slot (then moving it would put it before its home).
      for (int i = (free + 1) & mask; slots[i] != null; i = (i + 1) & mask) {
        int home = home(hashes[i], mask);
        boolean stays = free <= i ? free < home && home <= i : free < home || home <= i;
        if (!stays) {
          Entry moved = slots[i];
          slots[free] = moved;
          hashes[free] = hashes[i];
          moved.tableSlot = free;
          slots[i] = null;
          free = i;
        }
      }
    }

    void forEach(Consumer<Entry> action) {
      for (Entry entry : slots) {
        if (entry != null) {
          action.accept(entry);
        }
      }
    }

    private void place(Entry entry) {
      int mask = slots.length - 1;
      int i = home(entry.identity.hash, mask);
      while (slots[i] != null) {
        i = (i + 1) & mask;
      }
      slots[i] = entry;
      hashes[i] = entry.identity.hash;
      entry.tableSlot = i;
    }

    private void grow() {
      Entry[] old = slots;
      slots = new Entry[old.length * 2];
      hashes = new int[old.length * 2];
      for (Entry entry : old) {
        if (entry != null) {
          place(entry);
        }
      }
    }

    private static int home(int hash, int mask) {
      return (hash ^ (hash >>> 16)) & mask;
    }
  }

  /**
   * A 4-ary min-heap of entries that records each entry's position in it: by (timestamp, identity)
   * for a domain's firing order, or by output timestamp alone for the hold (only its minimum is
   * read).
   *
   * <p>Laid out for cache misses, which is what a heap of a million timers costs: the timestamps
   * and the identities' first eight bytes sit in primitive arrays beside the entries, so a sift
   * compares longs in place and reads an entry only to break a tie that those bytes leave (keys
   * with a long common prefix); four children share a cache line and the heap is half as deep as a
   * binary one. Draining a million timers of one timestamp (every key's end-of-window timer) spent
   * a fifth of a per-element-state run in a binary heap that compared identities through the
   * entries.
   */
  private static final class EntryHeap {
    private static final int ARITY = 4;

    private final boolean byOutput;
    private Entry[] entries = new Entry[16];
    private long[] times = new long[16];
    private long[] ties = new long[16];
    private int size;

    EntryHeap(boolean byOutput) {
      this.byOutput = byOutput;
    }

    Entry first() {
      return size == 0 ? null : entries[0];
    }

    void add(Entry entry) {
      if (size == entries.length) {
        entries = Arrays.copyOf(entries, size * 2);
        times = Arrays.copyOf(times, size * 2);
        ties = Arrays.copyOf(ties, size * 2);
      }
      siftUp(size++, entry, byOutput ? entry.outputTimestamp : entry.timestamp);
    }

    void remove(Entry entry) {
      int position = position(entry);
      int last = --size;
      Entry moved = entries[last];
      long movedTime = times[last];
      entries[last] = null;
      setPosition(entry, -1);
      if (position == last) {
        return;
      }
      if (position > 0 && precedes(movedTime, moved, (position - 1) / ARITY)) {
        siftUp(position, moved, movedTime);
      } else {
        siftDown(position, moved, movedTime);
      }
    }

    private void siftUp(int position, Entry entry, long time) {
      while (position > 0) {
        int parent = (position - 1) / ARITY;
        if (!precedes(time, entry, parent)) {
          break;
        }
        place(position, entries[parent], times[parent]);
        position = parent;
      }
      place(position, entry, time);
    }

    private void siftDown(int position, Entry entry, long time) {
      while (true) {
        int firstChild = ARITY * position + 1;
        if (firstChild >= size) {
          break;
        }
        int best = firstChild;
        int end = Math.min(firstChild + ARITY, size);
        for (int child = firstChild + 1; child < end; child++) {
          if (precedes(times[child], entries[child], best)) {
            best = child;
          }
        }
        if (!precedes(times[best], entries[best], time, entry)) {
          break;
        }
        place(position, entries[best], times[best]);
        position = best;
      }
      place(position, entry, time);
    }

    /** Whether (time, entry) sorts before the entry at {@code position}. */
    private boolean precedes(long time, Entry entry, int position) {
      if (time != times[position] || byOutput) {
        return time < times[position];
      }
      if (entry.tie != ties[position]) {
        return Long.compareUnsigned(entry.tie, ties[position]) < 0;
      }
      return KeyBytes.compare(entry.identity.bytes, entries[position].identity.bytes) < 0;
    }

    /** Whether (time, entry) sorts before (otherTime, other). */
    private boolean precedes(long time, Entry entry, long otherTime, Entry other) {
      if (time != otherTime || byOutput) {
        return time < otherTime;
      }
      if (entry.tie != other.tie) {
        return Long.compareUnsigned(entry.tie, other.tie) < 0;
      }
      return KeyBytes.compare(entry.identity.bytes, other.identity.bytes) < 0;
    }

    private void place(int position, Entry entry, long time) {
      entries[position] = entry;
      times[position] = time;
      ties[position] = entry.tie;
      setPosition(entry, position);
    }

    private int position(Entry entry) {
      return byOutput ? entry.outputPosition : entry.timePosition;
    }

    private void setPosition(Entry entry, int position) {
      if (byOutput) {
        entry.outputPosition = position;
      } else {
        entry.timePosition = position;
      }
    }
  }
}
