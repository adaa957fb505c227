package io.arcon.runner.state;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** Temporary test-only backend until the heap engine lands on main. */
final class TreeMapStateBackend implements StateBackend {
  private final Map<String, Table> tables = new HashMap<>();
  private final Map<Path, Map<String, TreeMap<byte[], byte[]>>> snapshots = new HashMap<>();

  @Override
  public String engine() {
    return "treemap";
  }

  @Override
  public StateTable table(String name) {
    return tables.computeIfAbsent(name, Table::new);
  }

  @Override
  public Collection<String> tableNames() {
    return tables.keySet();
  }

  @Override
  public long approximateSizeBytes() {
    return 0;
  }

  @Override
  public SnapshotHandle snapshot(long epoch, Path directory) {
    Map<String, TreeMap<byte[], byte[]>> copy = new HashMap<>();
    tables.forEach((n, t) -> copy.put(n, new TreeMap<>(t.rows)));
    snapshots.put(directory, copy);
    return new SnapshotHandle(engine(), epoch, directory);
  }

  @Override
  public void restore(SnapshotHandle handle) {
    tables.values().forEach(t -> t.rows.clear());
    snapshots.get(handle.directory()).forEach((n, rows) -> ((Table) table(n)).rows.putAll(rows));
  }

  @Override
  public void close() {}

  @Override
  public void dispose() {}

  private static final class Table implements StateTable {
    private final String name;
    private final TreeMap<byte[], byte[]> rows = new TreeMap<>(KeyBytes::compare);

    Table(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public byte[] get(byte[] key) {
      return rows.get(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      rows.put(key, value);
    }

    @Override
    public void delete(byte[] key) {
      rows.remove(key);
    }

    @Override
    public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
      rows.subMap(fromInclusive, true, toExclusive, false).clear();
    }

    @Override
    public void append(byte[] key, byte[] element) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] old = rows.get(key);
      if (old != null) {
        out.writeBytes(old);
      }
      ListFraming.frameInto(out, element);
      rows.put(key, out.toByteArray());
    }

    @Override
    public List<byte[]> getList(byte[] key) {
      return ListFraming.decode(rows.get(key));
    }

    @Override
    public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
      NavigableMap<byte[], byte[]> view = rows;
      if (fromInclusive != null) {
        view = view.tailMap(fromInclusive, true);
      }
      if (toExclusive != null) {
        view = view.headMap(toExclusive, false);
      }
      List<StateEntry> entries = new ArrayList<>();
      view.forEach((k, v) -> entries.add(new StateEntry(k, v)));
      Iterator<StateEntry> it = entries.iterator();
      return new CloseableIterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public StateEntry next() {
          return it.next();
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public long approximateSizeBytes() {
      return 0;
    }
  }
}
