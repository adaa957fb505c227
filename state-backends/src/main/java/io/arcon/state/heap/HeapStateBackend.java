package io.arcon.state.heap;

import io.arcon.state.CorruptSnapshotException;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendException;
import io.arcon.state.StateTable;
import io.arcon.state.TableRegistry;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.state.snapshot.SnapshotManifest;
import io.arcon.state.snapshot.SnapshotThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The in-memory engine: fastest, bounded by RAM, nothing on disk except its snapshots (one file per
 * table, see {@link HeapSnapshotFormat}).
 */
public final class HeapStateBackend implements StateBackend {
  public static final String ENGINE = "heap";

  private final TableRegistry<HeapStateTable> tables = new TableRegistry<>(HeapStateTable::new);
  private boolean closed;

  @Override
  public String engine() {
    return ENGINE;
  }

  @Override
  public StateTable table(String name) {
    checkOpen();
    return tables.getOrCreate(name);
  }

  @Override
  public Collection<String> tableNames() {
    return tables.names();
  }

  @Override
  public long approximateSizeBytes() {
    return tables.approximateSizeBytes();
  }

  @Override
  public SnapshotHandle snapshot(long epoch, Path directory) {
    writeTables(directory);
    return SnapshotManifest.write(ENGINE, epoch, directory);
  }

  /**
   * Writes the tables now: they change in place, so only a write at the cut is consistent (a
   * copy-on-write scheme would slow every write). The files are not touched afterwards, so their
   * checksums and the manifest are left to a snapshot thread.
   */
  @Override
  public CompletableFuture<SnapshotHandle> snapshotAsync(long epoch, Path directory) {
    writeTables(directory);
    return SnapshotThreads.supply(() -> SnapshotManifest.write(ENGINE, epoch, directory));
  }

  private void writeTables(Path directory) {
    checkOpen();
    FileTrees.requireEmptyOrAbsent(directory);
    FileTrees.createDirectories(directory);
    int index = 0;
    for (HeapStateTable table : tables) {
      Path file =
          directory.resolve(String.format("table-%05d%s", index++, HeapSnapshotFormat.SUFFIX));
      try {
        HeapSnapshotFormat.write(table, file);
      } catch (IOException e) {
        throw new StateBackendException(
            "Cannot write heap snapshot of table '" + table.name() + "' to " + file + ": " + e, e);
      }
    }
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
    for (HeapStateTable table : tables) {
      HeapIndex content = loaded.remove(table.name());
      table.replaceContent(content != null ? content : new HeapIndex());
    }
    for (Map.Entry<String, HeapIndex> e : loaded.entrySet()) {
      HeapStateTable table = new HeapStateTable(e.getKey());
      table.replaceContent(e.getValue());
      tables.add(table);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (HeapStateTable table : tables) {
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
}
