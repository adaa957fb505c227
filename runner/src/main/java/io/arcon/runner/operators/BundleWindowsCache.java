package io.arcon.runner.operators;

import io.arcon.state.ByteKeyHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.sdk.state.ValueState;
import org.joda.time.Instant;

/**
 * The {@link MergingWindows} of the keys that elements of the current bundle changed, held decoded
 * until they are written back to their keys' cells together: before timers fire, at the end of the
 * bundle and before a snapshot, so that whatever reads the cells then finds them written.
 *
 * <p>Why: under a merging {@code WindowFn} every element reads its key's windows cell, merges and
 * writes it back; decoding and encoding the cell (every window through the window coder) were a
 * ninth of Nexmark's Q4 and Q6, where half of the bids go to one hot auction. Within a bundle a key
 * is then decoded once and encoded once.
 *
 * <p>Holding pays only when keys come back within a bundle: when they do not (sessions of 10k keys
 * at a thousand elements per bundle), the later write misses the CPU caches the read had just
 * filled, and the holding cost a twentieth of such a GroupByKey's throughput. So the cache watches
 * how often a bundle's elements find their key held, and holds only while at least {@value
 * #HOLD_PERCENT}% do; while it does not, it holds one bundle in {@value #PROBE_EVERY} to look
 * again.
 *
 * <p>Only the element path uses it; the owner writes it back before anything else reads a key's
 * windows (its timers included), so the cells and this cache never disagree where they are read.
 */
final class BundleWindowsCache<K> {
  /** One key's windows and what writing them back needs. */
  static final class Entry<K> {
    final byte[] encodedKey;
    final int hash;
    K key;

    /** Null until the caller read them from the key's cell. */
    MergingWindows windows;

    /** The key's windows cell, bound when the windows were read, for the write-back. */
    ValueState<MergingWindows> cell;

    /** The timestamp of the last element that changed the windows: the write's cause. */
    Instant eventTime;

    private Entry(byte[] encodedKey, int hash) {
      this.encodedKey = encodedKey;
      this.hash = hash;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Entry<?> e
          && e.hash == hash
          && Arrays.equals(e.encodedKey, encodedKey);
    }
  }

  private final HashMap<Entry<K>, Entry<K>> entries = new HashMap<>();

  /** Entries in the order their keys were first changed in the bundle (write-back order). */
  private final List<Entry<K>> order = new ArrayList<>();

  /** Below this share of elements finding their key held, a bundle's keys are not held. */
  static final int HOLD_PERCENT = 25;

  /** While not holding, every this many bundles one holds, to measure again. */
  static final int PROBE_EVERY = 8;

  /** A bundle with fewer elements than this does not change whether keys are held. */
  static final int MIN_SAMPLE = 64;

  private Entry<K> last;

  private boolean holding = true;
  private int bundlesNotHeld;
  private int lookups;
  private int hits;

  boolean isEmpty() {
    return order.isEmpty();
  }

  /**
   * The entry of {@code encodedKey}, added empty (null windows and cell, for the caller to read
   * from the key's cell and set) when the bundle has not changed the key's windows yet; or null
   * when this bundle holds no keys, and the caller writes the cell itself. The caller sets the
   * entry's cause of change; the entry is written back as it is then.
   */
  Entry<K> entry(byte[] encodedKey, K key) {
    if (!holding) {
      lookups++;
      return null;
    }
    lookups++;
    // Consecutive elements of one key (a hot key) skip the hash.
    Entry<K> recent = last;
    if (recent != null
        && (recent.encodedKey == encodedKey || Arrays.equals(recent.encodedKey, encodedKey))) {
      hits++;
      return recent;
    }
    Entry<K> probe = new Entry<>(encodedKey, ByteKeyHash.hash(encodedKey));
    Entry<K> entry = entries.putIfAbsent(probe, probe);
    if (entry == null) {
      entry = probe;
      entry.key = key;
      order.add(entry);
    } else {
      hits++;
    }
    last = entry;
    return entry;
  }

  /** Whether the coming bundle's keys are held ({@link #entry} returns null otherwise). */
  boolean isHolding() {
    return holding;
  }

  /** Decides, from the bundle that ends, whether the next one holds its keys. */
  private void endBundle() {
    if (lookups >= MIN_SAMPLE) {
      if (holding) {
        holding = hits * 100L >= (long) lookups * HOLD_PERCENT;
        bundlesNotHeld = 0;
      } else if (++bundlesNotHeld >= PROBE_EVERY) {
        holding = true;
      }
      lookups = 0;
      hits = 0;
    }
  }

  /**
   * Hands every held entry to {@code writer}, in the order the keys were first changed, and empties
   * the cache.
   */
  void writeBack(Consumer<Entry<K>> writer) {
    endBundle();
    if (order.isEmpty()) {
      return;
    }
    // Emptied first, so that a writer that fails leaves no entry to write twice.
    List<Entry<K>> held = new ArrayList<>(order);
    entries.clear();
    order.clear();
    last = null;
    for (Entry<K> entry : held) {
      writer.accept(entry);
    }
  }
}
