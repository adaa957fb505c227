package io.arcon.state.heap;

import io.arcon.state.CorruptSnapshotException;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendException;
import io.arcon.state.StateTable;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-memory engine: fastest, bounded by RAM, nothing on disk except its snapshots (one file per
 * table, see {@link HeapSnapshotFormat}).
 */
public final class HeapStateBackend implements StateBackend {
  public static final String ENGINE = "heap";

  private final Map<String, HeapStateTable> tables = new LinkedHashMap<>();
  private boolean closed;

  @Override
  public String engine() {
    return ENGINE;
  }

  @Override
  public StateTable table(String name) {
    checkOpen();
    HeapStateTable table = tables.get(name);
    if (table == null) {
      validateTableName(name);
      table = new HeapStateTable(name);
      tables.put(name, table);
    }
    return table;
  }

  @Override
  public Collection<String> tableNames() {
    return List.copyOf(tables.keySet());
  }

  @Override
  public long approximateSizeBytes() {
    long total = 0;
    for (HeapStateTable table : tables.values()) {
      total += table.approximateSizeBytes();
    }
    return total;
  }

  @Override
  public SnapshotHandle snapshot(long epoch, Path directory) {
    checkOpen();
    FileTrees.requireEmptyOrAbsent(directory);
    FileTrees.createDirectories(directory);
    int index = 0;
    for (HeapStateTable table : tables.values()) {
      Path file =
          directory.resolve(String.format("table-%05d%s", index++, HeapSnapshotFormat.SUFFIX));
      try {
        HeapSnapshotFormat.write(table, file);
      } catch (IOException e) {
        throw new StateBackendException(
            "Cannot write heap snapshot of table '" + table.name() + "' to " + file + ": " + e, e);
      }
    }
    return SnapshotManifest.write(ENGINE, epoch, directory);
  }

  @Override
  public void restore(SnapshotHandle handle) {
    checkOpen();
    SnapshotManifest manifest = SnapshotManifest.verify(handle, ENGINE);
    // Load everything first: a file that does not parse leaves the current content untouched.
    Map<String, HeapIndex> loaded = new LinkedHashMap<>();
    for (SnapshotManifest.Entry entry : manifest.files()) {
      Path file = handle.directory().resolve(entry.path());
      try {
        HeapSnapshotFormat.Table table = HeapSnapshotFormat.read(file);
        loaded.put(table.name(), table.content());
      } catch (IOException | RuntimeException e) {
        throw new CorruptSnapshotException(
            "Heap snapshot file " + file + " cannot be read: " + e.getMessage(), e);
      }
    }
    // Table objects handed out earlier stay valid: they are refilled, or emptied when the
    // snapshot does not have them.
    for (HeapStateTable table : tables.values()) {
      HeapIndex content = loaded.remove(table.name());
      table.replaceContent(content != null ? content : new HeapIndex());
    }
    for (Map.Entry<String, HeapIndex> e : loaded.entrySet()) {
      HeapStateTable table = new HeapStateTable(e.getKey());
      table.replaceContent(e.getValue());
      tables.put(e.getKey(), table);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (HeapStateTable table : new ArrayList<>(tables.values())) {
      table.replaceContent(new HeapIndex());
    }
    tables.clear();
  }

  @Override
  public void dispose() {
    close();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("The heap state backend is closed");
    }
  }

  static void validateTableName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("A state table needs a non-empty name");
    }
  }
}
