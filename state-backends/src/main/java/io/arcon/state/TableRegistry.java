package io.arcon.state;

import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The named tables of one backend instance, shared by the engines: get-or-create by name (a name is
 * validated once, when its table is created), the names that exist, and iteration in creation order
 * for sizes, flushes, re-binding after a restore and closing. Single-threaded, like its backend.
 *
 * <p>{@link #getOrCreate} is on the state-access path of some callers, so a hit costs one map
 * lookup: no allocation, no locking.
 */
public final class TableRegistry<T extends StateTable> implements Iterable<T> {
  private final Map<String, T> tables = new LinkedHashMap<>();
  private final Function<String, T> create;

  /** {@code create} makes the engine's table for a new, valid name (and may fail for it). */
  public TableRegistry(Function<String, T> create) {
    this.create = create;
  }

  /** The table named {@code name}, created on first use. */
  public T getOrCreate(String name) {
    T table = tables.get(name);
    return table != null ? table : createTable(name);
  }

  private T createTable(String name) {
    validateName(name);
    T table = create.apply(name);
    tables.put(name, table);
    return table;
  }

  /**
   * Registers a table whose storage already exists (found when the engine opened its files or
   * restored a snapshot), replacing any table of the same name.
   */
  public void add(T table) {
    tables.put(table.name(), table);
  }

  /** A copy of the names that exist, in creation order. */
  public Collection<String> names() {
    return List.copyOf(tables.keySet());
  }

  public int size() {
    return tables.size();
  }

  /** The sum of every table's {@link StateTable#approximateSizeBytes}. */
  public long approximateSizeBytes() {
    long total = 0;
    for (T table : tables.values()) {
      total += table.approximateSizeBytes();
    }
    return total;
  }

  /** The tables in creation order. */
  @Override
  public Iterator<T> iterator() {
    return tables.values().iterator();
  }

  /** Forgets every table (the engine releases their storage itself). */
  public void clear() {
    tables.clear();
  }

  /** Table names are non-empty; what else a name may contain is up to each engine's storage. */
  private static void validateName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("A state table needs a non-empty name");
    }
  }
}
