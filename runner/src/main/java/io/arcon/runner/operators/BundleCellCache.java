package io.arcon.runner.operators;

import io.arcon.state.ByteKeyHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.beam.sdk.state.ValueState;
import org.joda.time.Instant;

/**
 * Cells that elements of the current bundle read and changed, held decoded until they are written
 * back together: before timers fire, at the end of the bundle and before a snapshot, so that
 * whatever reads the cells then finds them written. A cell is one key's (and, for a window's pane,
 * one window's) value.
 *
 * <p>Why: every element of a triggered or merging GroupByKey reads a cell (a merging key's windows,
 * a window's pane state), changes it and writes it back. Where a bundle's elements come back to a
 * key — Nexmark's hot auctions and bidders — decoding and encoding the same cell again and again
 * were a ninth of Q4 and Q6 and a sixth of Q5 and Q12. Within a bundle a held cell is decoded once
 * and encoded once.
 *
 * <p>Holding pays only when cells come back within a bundle: when they do not (sessions of 10k keys
 * at a thousand elements per bundle), the later write misses the CPU caches the read had just
 * filled, and holding cost about a twentieth of such a GroupByKey's throughput. So the cache
 * watches how often a bundle's elements find their cell held, and holds only while enough do
 * ({@link BundleRepeats}).
 *
 * <p>Only the element path uses it; the owner writes it back before anything else reads the cells
 * (its timers included), so the cells and this cache never disagree where they are read.
 *
 * @param <K> the key
 * @param <V> the cell's value
 */
final class BundleCellCache<K, V> {
  /** One cell: its value and what writing it back needs. */
  static final class Entry<K, V> {
    final byte[] encodedKey;

    /** The window of a per-window cell, or null for a per-key one. */
    final Object window;

    final int hash;
    K key;

    /** Whether the caller read the cell: {@link #value} and {@link #cell} are set. */
    boolean read;

    /** The cell's value as the bundle changed it; null while the cell is empty. */
    V value;

    /** The cell bound to the key, for the write-back. */
    ValueState<V> cell;

    /** The timestamp of the last element that changed the value: the write's cause. */
    Instant eventTime;

    private Entry(byte[] encodedKey, Object window, int hash) {
      this.encodedKey = encodedKey;
      this.window = window;
      this.hash = hash;
    }

    boolean isOf(byte[] otherKey, Object otherWindow) {
      return (encodedKey == otherKey || Arrays.equals(encodedKey, otherKey))
          && (window == otherWindow || Objects.equals(window, otherWindow));
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Entry<?, ?> e && e.hash == hash && e.isOf(encodedKey, window);
    }
  }

  private final HashMap<Entry<K, V>, Entry<K, V>> entries = new HashMap<>();

  /** Entries in the order their cells were first read in the bundle (write-back order). */
  private final List<Entry<K, V>> order = new ArrayList<>();

  private Entry<K, V> last;

  /** Whether this bundle holds cells, from how often the elements of earlier ones found theirs. */
  private final BundleRepeats repeats = new BundleRepeats();

  /**
   * The entry of the cell of {@code encodedKey} (and {@code window}, or null for a per-key cell),
   * added unread when the bundle has not read it yet; or null when this bundle holds no cells, and
   * the caller reads and writes the cell itself. The caller reads an unread entry's cell into it,
   * then sets its value and the cause of its change; the entry is written back as it is then.
   */
  Entry<K, V> entry(byte[] encodedKey, Object window, K key) {
    if (!repeats.isOn()) {
      repeats.count(1, 0);
      return null;
    }
    // Consecutive elements of one cell (a hot key) skip the hash.
    Entry<K, V> recent = last;
    if (recent != null && recent.isOf(encodedKey, window)) {
      repeats.count(1, 1);
      return recent;
    }
    int hash = ByteKeyHash.hash(encodedKey) ^ (window == null ? 0 : window.hashCode() * 0x9E3779B9);
    Entry<K, V> probe = new Entry<>(encodedKey, window, hash);
    Entry<K, V> entry = entries.putIfAbsent(probe, probe);
    if (entry == null) {
      entry = probe;
      entry.key = key;
      order.add(entry);
      repeats.count(1, 0);
    } else {
      repeats.count(1, 1);
    }
    last = entry;
    return entry;
  }

  /**
   * The entry of the cell as {@link #entry} finds it, its cell read into it ({@code cellOfKey}
   * gives the cell bound to the current key) unless the bundle already did, and {@code time} set as
   * the cause of its change; or null when this bundle holds no cells. The caller sets the entry's
   * value to what the element makes of it.
   */
  Entry<K, V> held(
      byte[] encodedKey, Object window, K key, Instant time, Supplier<ValueState<V>> cellOfKey) {
    Entry<K, V> entry = entry(encodedKey, window, key);
    if (entry != null) {
      if (!entry.read) {
        entry.cell = cellOfKey.get();
        entry.value = entry.cell.read();
        entry.read = true;
      }
      entry.eventTime = time;
    }
    return entry;
  }

  /** Whether the coming bundle's cells are held ({@link #entry} returns null otherwise). */
  boolean isHolding() {
    return repeats.isOn();
  }

  /**
   * Hands every held entry the caller read to {@code writer}, in the order they were first read,
   * empties the cache and decides from the bundle that ends whether the next one holds its cells.
   */
  void writeBack(Consumer<Entry<K, V>> writer) {
    repeats.endBundle();
    if (order.isEmpty()) {
      return;
    }
    // Emptied first, so that a writer that fails leaves no entry to write twice.
    List<Entry<K, V>> held = new ArrayList<>(order);
    entries.clear();
    order.clear();
    last = null;
    for (Entry<K, V> entry : held) {
      if (entry.read) { // else its element failed before reading it: nothing changed
        writer.accept(entry);
      }
    }
  }
}
