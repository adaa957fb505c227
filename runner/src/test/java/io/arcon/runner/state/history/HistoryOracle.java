package io.arcon.runner.state.history;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * An in-memory model of Beam state, independent of the backend: it keeps every operation with its
 * chain stamp and write order, and computes the state of each cell at a version T by replaying the
 * operations with stamp &lt; T in (stamp, write order) on plain Java collections. Values come out
 * in the shape {@link StateHistory.CellVersion#value} promises, with maps as lists of [key, value]
 * pairs (see {@link #normalize}) so that their order is compared too.
 */
final class HistoryOracle {

  /** A cell: key (as the test's String key) and namespace string. */
  record CellId(String key, String namespace) {}

  /** What the oracle expects of a non-empty cell. */
  record Expected(Object value, long updatedAt) {}

  private record Op(String stateId, CellId cell, long stamp, long order, Consumer<Object> action) {}

  private final Map<String, Supplier<Cell>> cellFactories = new HashMap<>();
  private final List<Op> ops = new ArrayList<>();
  private long order;

  void declare(String stateId, Supplier<Cell> factory) {
    cellFactories.put(stateId, factory);
  }

  /** Records that {@code action} was applied to one cell's model at {@code chainStamp}. */
  @SuppressWarnings("unchecked")
  <C extends Cell> void record(
      String stateId, String key, String namespace, long chainStamp, Consumer<C> action) {
    ops.add(
        new Op(
            stateId,
            new CellId(key, namespace),
            chainStamp,
            order++,
            cell -> action.accept((C) cell)));
  }

  List<Long> stamps() {
    List<Long> stamps = new ArrayList<>();
    for (Op op : ops) {
      stamps.add(op.stamp);
    }
    return stamps;
  }

  /** The non-empty cells of {@code stateId} at {@code versionMillis}, optionally of one key. */
  Map<CellId, Expected> at(String stateId, long versionMillis, String onlyKey) {
    List<Op> applied = new ArrayList<>();
    for (Op op : ops) {
      if (op.stateId.equals(stateId)
          && op.stamp < versionMillis
          && (onlyKey == null || op.cell.key().equals(onlyKey))) {
        applied.add(op);
      }
    }
    applied.sort(Comparator.comparingLong(Op::stamp).thenComparingLong(Op::order));
    Map<CellId, Cell> cells = new HashMap<>();
    for (Op op : applied) {
      op.action.accept(cells.computeIfAbsent(op.cell, c -> cellFactories.get(stateId).get()));
    }
    Map<CellId, Expected> out = new HashMap<>();
    cells.forEach(
        (id, cell) -> {
          if (!cell.isEmpty()) {
            out.put(id, new Expected(cell.value(), cell.updatedAt()));
          }
        });
    return out;
  }

  /** Maps become lists of [key, value] pairs, in their order; everything else stays. */
  static Object normalize(Object value) {
    if (value instanceof Map<?, ?> map) {
      List<List<Object>> pairs = new ArrayList<>();
      map.forEach((k, v) -> pairs.add(Arrays.asList(k, v)));
      return pairs;
    }
    return value;
  }

  static <T> byte[] encode(Coder<T> coder, T value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      coder.encode(value, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code values} ordered by their nested encodings, as Beam state orders set and map keys. */
  static <T> List<T> byEncoding(Coder<T> coder, Iterable<T> values) {
    List<T> sorted = new ArrayList<>();
    values.forEach(sorted::add);
    sorted.sort((a, b) -> Arrays.compareUnsigned(encode(coder, a), encode(coder, b)));
    return sorted;
  }

  // ---- cell models ------------------------------------------------------------------------------

  interface Cell {
    void clear();

    boolean isEmpty();

    Object value();

    long updatedAt();
  }

  /** A value and the event time of the write that stored it. */
  record Stamped<T>(T value, long eventTime) {}

  private static long maxStamp(Iterable<? extends Stamped<?>> values) {
    long max = Long.MIN_VALUE;
    for (Stamped<?> s : values) {
      max = Math.max(max, s.eventTime());
    }
    return max;
  }

  static final class ValueCell<T> implements Cell {
    Stamped<T> current;

    void write(T value, long eventTime) {
      current = value == null ? null : new Stamped<>(value, eventTime);
    }

    @Override
    public void clear() {
      current = null;
    }

    @Override
    public boolean isEmpty() {
      return current == null;
    }

    @Override
    public Object value() {
      return current.value();
    }

    @Override
    public long updatedAt() {
      return current.eventTime();
    }
  }

  static final class BagCell<T> implements Cell {
    final List<Stamped<T>> elements = new ArrayList<>();

    @Override
    public void clear() {
      elements.clear();
    }

    @Override
    public boolean isEmpty() {
      return elements.isEmpty();
    }

    @Override
    public Object value() {
      List<T> out = new ArrayList<>();
      elements.forEach(e -> out.add(e.value()));
      return out;
    }

    @Override
    public long updatedAt() {
      return maxStamp(elements);
    }
  }

  static final class SetCell<T> implements Cell {
    final Coder<T> coder;
    final Map<T, Stamped<T>> elements = new LinkedHashMap<>();

    SetCell(Coder<T> coder) {
      this.coder = coder;
    }

    @Override
    public void clear() {
      elements.clear();
    }

    @Override
    public boolean isEmpty() {
      return elements.isEmpty();
    }

    @Override
    public Object value() {
      return byEncoding(coder, elements.keySet());
    }

    @Override
    public long updatedAt() {
      return maxStamp(elements.values());
    }
  }

  static final class MapCell<K, V> implements Cell {
    final Coder<K> keyCoder;
    final Map<K, Stamped<V>> entries = new LinkedHashMap<>();

    MapCell(Coder<K> keyCoder) {
      this.keyCoder = keyCoder;
    }

    @Override
    public void clear() {
      entries.clear();
    }

    @Override
    public boolean isEmpty() {
      return entries.isEmpty();
    }

    @Override
    public Object value() {
      List<List<Object>> pairs = new ArrayList<>();
      for (K k : byEncoding(keyCoder, entries.keySet())) {
        pairs.add(Arrays.asList(k, entries.get(k).value()));
      }
      return pairs;
    }

    @Override
    public long updatedAt() {
      return maxStamp(entries.values());
    }
  }

  static final class MultimapCell<K, V> implements Cell {
    final Coder<K> keyCoder;
    final Map<K, List<Stamped<V>>> entries = new LinkedHashMap<>();

    MultimapCell(Coder<K> keyCoder) {
      this.keyCoder = keyCoder;
    }

    @Override
    public void clear() {
      entries.clear();
    }

    @Override
    public boolean isEmpty() {
      return entries.isEmpty();
    }

    @Override
    public Object value() {
      List<List<Object>> pairs = new ArrayList<>();
      for (K k : byEncoding(keyCoder, entries.keySet())) {
        List<V> values = new ArrayList<>();
        entries.get(k).forEach(s -> values.add(s.value()));
        pairs.add(Arrays.asList(k, values));
      }
      return pairs;
    }

    @Override
    public long updatedAt() {
      long max = Long.MIN_VALUE;
      for (List<Stamped<V>> values : entries.values()) {
        max = Math.max(max, maxStamp(values));
      }
      return max;
    }
  }

  static final class OrderedListCell<T> implements Cell {
    /** In insertion order; {@link #value} sorts by timestamp, keeping it for equal ones. */
    final List<Stamped<TimestampedValue<T>>> elements = new ArrayList<>();

    void clearRange(long fromInclusive, long toExclusive) {
      elements.removeIf(
          e -> {
            long ts = e.value().getTimestamp().getMillis();
            return ts >= fromInclusive && ts < toExclusive;
          });
    }

    @Override
    public void clear() {
      elements.clear();
    }

    @Override
    public boolean isEmpty() {
      return elements.isEmpty();
    }

    @Override
    public Object value() {
      List<TimestampedValue<T>> out = new ArrayList<>();
      elements.forEach(e -> out.add(e.value()));
      out.sort(Comparator.comparing(TimestampedValue::getTimestamp, Instant::compareTo));
      return out;
    }

    @Override
    public long updatedAt() {
      return maxStamp(elements);
    }
  }

  /** A combining cell whose accumulator is a running sum. */
  static final class SumCell implements Cell {
    Long accumulator;
    long eventTime;

    void add(long amount, long eventTime) {
      accumulator = (accumulator == null ? 0L : accumulator) + amount;
      this.eventTime = eventTime;
    }

    @Override
    public void clear() {
      accumulator = null;
    }

    @Override
    public boolean isEmpty() {
      return accumulator == null;
    }

    @Override
    public Object value() {
      return accumulator;
    }

    @Override
    public long updatedAt() {
      return eventTime;
    }
  }

  /** The stamps of every entry in the history runs of {@code backend} (flush first). */
  static List<Long> runStamps(io.arcon.state.StateBackend backend) {
    List<Long> stamps = new ArrayList<>();
    try (io.arcon.state.CloseableIterator<io.arcon.state.StateEntry> it =
        backend.table(ChainLayout.RUNS_TABLE).iterator()) {
      while (it.hasNext()) {
        io.arcon.state.StateEntry row = it.next();
        if (!ChainRuns.isPage(row.key())) {
          continue;
        }
        ChainRun.Cursor cursor = new ChainRun.Cursor(row.value());
        for (cursor.seek(null); cursor.valid(); cursor.next()) {
          cursor.forEachEntry(
              (bytes, offset, length) -> stamps.add(ChainLayout.entryStamp(bytes, offset, length)));
        }
      }
    }
    return stamps;
  }
}
