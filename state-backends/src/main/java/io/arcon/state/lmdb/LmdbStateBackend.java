package io.arcon.state.lmdb;

import io.arcon.state.KeyBytes;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendException;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import io.arcon.state.TableRegistry;
import io.arcon.state.nativelib.NativeLibraries;
import io.arcon.state.snapshot.DirectorySwap;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.state.snapshot.SnapshotManifest;
import io.arcon.state.snapshot.SnapshotThreads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.lmdbjava.CopyFlags;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.SeekOp;
import org.lmdbjava.Stat;
import org.lmdbjava.Txn;

/**
 * The memory-mapped B+tree engine for read-heavy state: one LMDB environment per backend in {@code
 * <directory>/lmdb}, one named database per table.
 *
 * <p>Writes are grouped into one write transaction, committed every {@code lmdb.writeBatchOps}
 * writes (or 64 MiB), on {@link #flush()}, {@link #snapshot}, table creation and {@link #close()}.
 * Reads go through that open transaction, so they always see earlier writes. The environment runs
 * with {@code MDB_NOSYNC|MDB_NOMETASYNC} (durability comes from snapshots): after a process kill a
 * reopened directory holds every committed batch, i.e. at least everything before the last {@link
 * #flush()}; the uncommitted batch is lost.
 *
 * <p>The environment runs with {@code MDB_WRITEMAP}: writes go straight into the shared map instead
 * of malloc'd page copies that a commit writes back with {@code pwrite} (about twice the update
 * rate at 10M keys), and the map is advised to use transparent huge pages (see {@link
 * LmdbHugePages}). A kill still loses only the uncommitted batch: its pages are not reachable from
 * any meta page until the commit.
 *
 * <p>The environment runs with {@code MDB_NOLOCK}: a backend instance is used by one thread at a
 * time but not always the same thread (actors on a thread pool), which LMDB's thread-bound writer
 * lock does not allow; the backend itself guarantees a single writer and no stale readers.
 *
 * <p>The map starts at {@code lmdb.mapSizeBytes} and doubles whenever LMDB reports it full; the
 * uncommitted writes are then replayed, so callers never see {@code MDB_MAP_FULL}.
 *
 * <p>Keys are limited to 510 bytes (LMDB's 511 minus one marker byte, see {@link LmdbKeys}); a
 * longer key is refused with an error naming the table and the owner (the transform, see {@link
 * io.arcon.state.StateBackendConfig#owner()}). Hashing long keys would break the ordered scans the
 * runner relies on, so transforms with longer keys must use {@code rocksdb} or {@code heap}. Lists
 * are read-modify-write (LMDB has no merge), so an append costs the list's size.
 */
public final class LmdbStateBackend implements StateBackend {
  public static final String ENGINE = "lmdb";

  static {
    // Before any Env: lmdbjava reads the library path once, when its Library class initialises.
    NativeLibraries.prepareLmdb();
  }

  private static final long MAX_BATCH_BYTES = 64L << 20;

  /** The most entries one scan chunk copies out (scans start smaller, see {@link LmdbScan}). */
  static final int CHUNK_ENTRIES = 512;

  private static final long CHUNK_BYTES = 4L << 20;

  private final Path root;
  private final Path envPath;
  private final LmdbOptions options;

  /** Whose state this is ({@link io.arcon.state.StateBackendConfig#owner()}), or null. */
  private final String owner;

  private final TableRegistry<LmdbStateTable> tables =
      new TableRegistry<>(name -> new LmdbStateTable(this, name, openDbi(name)));
  private final List<LmdbWrite> pending = new ArrayList<>();
  private long pendingBytes;

  private Env<ByteBuffer> env;
  private LmdbKeys keys;
  private Txn<ByteBuffer> writeTxn;
  private Txn<ByteBuffer> readTxn;

  /** The copy of the last {@link #snapshotAsync} while it may still run, else null. */
  private CompletableFuture<SnapshotHandle> copyInFlight;

  private boolean readTxnActive;
  private boolean closed;

  public LmdbStateBackend(Path directory, LmdbOptions options) {
    this(directory, options, null);
  }

  /**
   * @param owner the stateful transform whose state this is, named in errors; null if none
   */
  public LmdbStateBackend(Path directory, LmdbOptions options, String owner) {
    this.root = directory;
    this.envPath = directory.resolve("lmdb");
    this.options = options;
    this.owner = owner;
    openEnv();
  }

  @Override
  public String engine() {
    return ENGINE;
  }

  @Override
  public StateTable table(String name) {
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
  public void flush() {
    checkOpen();
    commit();
    try {
      env.sync(true);
    } catch (LmdbException e) {
      throw new StateBackendException("LMDB sync of " + envPath + " failed: " + e, e);
    }
  }

  @Override
  public SnapshotHandle snapshot(long epoch, Path directory) {
    try {
      return snapshotAsync(epoch, directory).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /**
   * Commits, then copies the environment on a snapshot thread while this backend keeps serving
   * reads and writes.
   *
   * <p>Why that is safe: {@code mdb_env_copy2} copies the MVCC snapshot of the last commit under
   * its own read transaction, and LMDB only writes to pages no snapshot since the oldest reader
   * uses. But this environment runs with {@code MDB_NOLOCK}, so LMDB does not know of the copy's
   * reader: a write transaction may reuse pages freed by any transaction before the previous one.
   * The copy's pages are freed at the earliest by the first commit after it began; so no commit may
   * happen until the copy is done, and none does: {@link #commit} waits for the copy first. Writes
   * meanwhile go into the one open write transaction (new pages only, never the copy's), until its
   * batch is full or something needs a commit (flush, a new table, close, the next snapshot); that
   * one waits for the copy. Growing the map remaps it under the copy's feet, so that waits too.
   * Without the wait, the copy could also pick up a meta page committed after the cut.
   */
  @Override
  public CompletableFuture<SnapshotHandle> snapshotAsync(long epoch, Path directory) {
    checkOpen();
    FileTrees.requireEmptyOrAbsent(directory);
    FileTrees.createDirectories(directory);
    commit();
    Env<ByteBuffer> copied = env;
    CompletableFuture<SnapshotHandle> copy =
        SnapshotThreads.supply(
            () -> {
              try {
                copied.copy(directory.toFile(), CopyFlags.MDB_CP_COMPACT);
              } catch (LmdbException e) {
                throw new StateBackendException("LMDB copy into " + directory + " failed: " + e, e);
              }
              return SnapshotManifest.write(ENGINE, epoch, directory);
            });
    copyInFlight = copy;
    return copy;
  }

  /**
   * Waits until the copy of an asynchronous snapshot (if one runs) is done with the environment.
   * Its failure is reported through the snapshot's own future, not here.
   */
  private void awaitCopy() {
    CompletableFuture<SnapshotHandle> copy = copyInFlight;
    if (copy == null) {
      return;
    }
    copyInFlight = null;
    try {
      copy.join();
    } catch (CompletionException | CancellationException e) {
      // Reported to whoever took the snapshot.
    }
  }

  @Override
  public void restore(SnapshotHandle handle) {
    checkOpen();
    SnapshotManifest manifest = SnapshotManifest.verify(handle, ENGINE);
    DirectorySwap.restore(
        handle,
        manifest,
        "LMDB",
        root,
        envPath,
        () -> {
          // The restore replaces everything, uncommitted writes included.
          abortWriteTxn();
          closeEnv();
        },
        this::openEnv);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (env != null) {
        commit();
        env.sync(true);
      }
    } finally {
      abortWriteTxn();
      closeEnv();
    }
  }

  @Override
  public void dispose() {
    if (!closed) {
      closed = true;
      abortWriteTxn();
      closeEnv();
    }
    FileTrees.deleteRecursively(envPath);
    FileTrees.deleteRecursively(root.resolve("lmdb.restoring"));
    FileTrees.deleteRecursively(root.resolve("lmdb.previous"));
    FileTrees.deleteIfEmpty(root);
  }

  // ------------------------------------------------------------------ used by tables and scans

  /** Refuses keys LMDB cannot store, with what to do about it. */
  byte[] checkKey(LmdbStateTable table, byte[] key) {
    if (key.length > keys.maxKeyBytes()) {
      throw new IllegalArgumentException(
          "The lmdb state backend stores keys of at most "
              + keys.maxKeyBytes()
              + " bytes; table '"
              + table.name()
              + "'"
              + (owner == null ? "" : " of transform '" + owner + "'")
              + " got a key of "
              + key.length
              + " bytes"
              + (owner == null
                  ? ""
                  : " (a row key is the transform's encoded key plus the address of a state or"
                      + " timer under it)")
              + ". Use the rocksdb or heap engine for this transform (e.g. --stateBackends="
              + (owner == null ? "<transform>" : owner)
              + "=rocksdb) or shorten its keys.");
    }
    return key;
  }

  byte[] get(LmdbStateTable table, byte[] key) {
    checkOpen();
    if (key.length > keys.maxKeyBytes()) {
      return null; // such a key can never have been stored
    }
    try {
      ByteBuffer value = table.dbi().get(readTxn(), keys.encode(key));
      if (value == null) {
        return null;
      }
      byte[] out = new byte[value.remaining()];
      value.get(out);
      return out;
    } catch (LmdbException e) {
      throw failure("get on table '" + table.name() + "'", e);
    }
  }

  void write(LmdbWrite write) {
    checkOpen();
    pending.add(write);
    try {
      pendingBytes += write.applyTo(writeTxn(), keys);
    } catch (Env.MapFullException e) {
      pendingBytes = growAndReplay();
    } catch (LmdbException e) {
      // The transaction is unusable after a failed write: drop it and this write, keep the rest.
      pending.remove(pending.size() - 1);
      replayAfterFailure();
      throw failure("write", e);
    }
    if (pending.size() >= options.writeBatchOps() || pendingBytes >= MAX_BATCH_BYTES) {
      commit();
    }
  }

  /**
   * Reads entries of {@code [start, toExclusive)} (or {@code (start, toExclusive)} when {@code
   * startExclusive}) into {@code out}, at most {@code maxEntries} entries or one chunk's bytes;
   * returns whether more may follow.
   */
  boolean readChunk(
      LmdbStateTable table,
      byte[] start,
      boolean startExclusive,
      byte[] toExclusive,
      int maxEntries,
      Deque<StateEntry> out) {
    checkOpen();
    if (start != null && toExclusive != null && KeyBytes.compare(start, toExclusive) >= 0) {
      return false;
    }
    long bytes = 0;
    try (Cursor<ByteBuffer> cursor = table.dbi().openCursor(readTxn())) {
      boolean found =
          start == null
              ? cursor.seek(SeekOp.MDB_FIRST)
              : cursor.get(keys.encodeBound(start), GetOp.MDB_SET_RANGE);
      while (found) {
        byte[] key = keys.decode(cursor.key());
        if (start != null) {
          int c = KeyBytes.compare(key, start);
          if (c < 0 || (c == 0 && startExclusive)) {
            found = cursor.next();
            continue;
          }
        }
        if (toExclusive != null && KeyBytes.compare(key, toExclusive) >= 0) {
          return false;
        }
        ByteBuffer v = cursor.val();
        byte[] value = new byte[v.remaining()];
        v.get(value);
        out.add(new StateEntry(key, value));
        bytes += key.length + value.length;
        if (out.size() >= maxEntries || bytes >= CHUNK_BYTES) {
          return true;
        }
        found = cursor.next();
      }
      return false;
    } catch (LmdbException e) {
      throw failure("scan of table '" + table.name() + "'", e);
    }
  }

  long tableSizeBytes(LmdbStateTable table) {
    checkOpen();
    try {
      Stat stat = table.dbi().stat(readTxn());
      return (stat.branchPages + stat.leafPages + stat.overflowPages) * (long) stat.pageSize;
    } catch (LmdbException e) {
      throw failure("stat of table '" + table.name() + "'", e);
    }
  }

  // ------------------------------------------------------------------ transactions

  /** The open write transaction if there is one (reads must see pending writes), else a reader. */
  private Txn<ByteBuffer> readTxn() {
    if (writeTxn != null) {
      return writeTxn;
    }
    if (readTxn == null) {
      readTxn = env.txnRead();
      readTxnActive = true;
    } else if (!readTxnActive) {
      readTxn.renew();
      readTxnActive = true;
    }
    return readTxn;
  }

  /**
   * Releases the reader's snapshot, so LMDB can reuse pages freed by later commits and the next
   * read sees them.
   */
  private void resetReadTxn() {
    if (readTxn != null && readTxnActive) {
      readTxn.reset();
      readTxnActive = false;
    }
  }

  private Txn<ByteBuffer> writeTxn() {
    if (writeTxn == null) {
      // Without LMDB's lock table a writer may reuse pages an older reader snapshot still sees:
      // end the reader first (reads go through the write transaction while it is open).
      resetReadTxn();
      writeTxn = env.txnWrite();
    }
    return writeTxn;
  }

  private void commit() {
    // A commit would let later writes reuse the pages an asynchronous copy still reads.
    awaitCopy();
    while (writeTxn != null) {
      try {
        writeTxn.commit();
      } catch (Env.MapFullException e) {
        // LMDB aborted the transaction; make room and do the batch again.
        writeTxn.close();
        writeTxn = null;
        pendingBytes = growAndReplay();
        continue;
      }
      writeTxn.close();
      writeTxn = null;
      pending.clear();
      pendingBytes = 0;
      resetReadTxn();
    }
  }

  private void abortWriteTxn() {
    if (writeTxn != null) {
      writeTxn.close();
      writeTxn = null;
    }
    pending.clear();
    pendingBytes = 0;
  }

  /**
   * Doubles the map (LMDB needs no transaction open to resize) and redoes the pending writes;
   * returns the bytes they dirtied.
   */
  private long growAndReplay() {
    // Resizing remaps the environment, which a running copy reads through.
    awaitCopy();
    while (true) {
      if (writeTxn != null) {
        writeTxn.close();
        writeTxn = null;
      }
      resetReadTxn();
      long current = env.info().mapSize;
      long next = Math.multiplyExact(current, 2);
      env.setMapSize(next);
      // The map was replaced: the advice applies to a mapping, not to the file.
      adviseHugePages();
      try {
        Txn<ByteBuffer> txn = writeTxn();
        long bytes = 0;
        for (LmdbWrite w : pending) {
          bytes += w.applyTo(txn, keys);
        }
        return bytes;
      } catch (Env.MapFullException again) {
        // Still not enough: double again.
      }
    }
  }

  private void replayAfterFailure() {
    if (writeTxn != null) {
      writeTxn.close();
      writeTxn = null;
    }
    Txn<ByteBuffer> txn = writeTxn();
    pendingBytes = 0;
    try {
      for (LmdbWrite w : pending) {
        pendingBytes += w.applyTo(txn, keys);
      }
    } catch (Env.MapFullException e) {
      pendingBytes = growAndReplay();
    }
  }

  // ------------------------------------------------------------------ environment

  private Dbi<ByteBuffer> openDbi(String name) {
    checkOpen();
    // Opening a database takes LMDB's write lock in its own transaction: ours must be done.
    commit();
    try {
      Dbi<ByteBuffer> dbi = env.openDbi(name.getBytes(StandardCharsets.UTF_8), DbiFlags.MDB_CREATE);
      // A reader that began before the database existed cannot use its handle.
      resetReadTxn();
      return dbi;
    } catch (Dbi.DbFullException e) {
      throw new StateBackendException(
          "The lmdb state backend at "
              + root
              + " already holds "
              + options.maxTables()
              + " tables and cannot create '"
              + name
              + "'; raise the option "
              + LmdbOptions.MAX_TABLES,
          e);
    } catch (LmdbException e) {
      throw failure("creating table '" + name + "'", e);
    }
  }

  private void openEnv() {
    try {
      Files.createDirectories(envPath);
      env =
          Env.create(OpenlessByteBufferProxy.INSTANCE)
              .setMapSize(options.mapSizeBytes())
              .setMaxDbs(options.maxTables())
              .open(
                  envPath.toFile(),
                  EnvFlags.MDB_NOSYNC,
                  EnvFlags.MDB_NOMETASYNC,
                  EnvFlags.MDB_NOTLS,
                  // Writes go straight into the shared map instead of malloc'd copies written
                  // back with pwrite at commit: the page cache is then filled through faults on
                  // the map, which is what lets it use huge pages (see LmdbHugePages). Crash
                  // safety is unchanged: uncommitted pages are never reachable from a meta page.
                  EnvFlags.MDB_WRITEMAP,
                  // LMDB's writer lock binds a write transaction to the OS thread that began it,
                  // but the runtime's actors run on a pool: the next message may use this backend
                  // from another thread, whose txn_begin would then wait forever for the lock the
                  // first thread still holds. The backend is this environment's only user and is
                  // never used by two threads at once, so it provides LMDB's single-writer rule
                  // itself, and no reader snapshot is ever used while a write is open (see
                  // readTxn and writeTxn).
                  EnvFlags.MDB_NOLOCK);
    } catch (IOException | LmdbException e) {
      throw new StateBackendException("Cannot open LMDB at " + envPath + ": " + e, e);
    }
    adviseHugePages();
    keys = new LmdbKeys(env.getMaxKeySize());
    Map<String, Dbi<ByteBuffer>> existing = new LinkedHashMap<>();
    for (byte[] name : env.getDbiNames()) {
      existing.put(new String(name, StandardCharsets.UTF_8), env.openDbi(name));
    }
    // Tables handed out before a restore keep working: re-bind them, recreating (empty) the ones
    // the snapshot does not have.
    for (LmdbStateTable table : tables) {
      Dbi<ByteBuffer> dbi = existing.remove(table.name());
      table.rebind(dbi != null ? dbi : openDbi(table.name()));
    }
    for (Map.Entry<String, Dbi<ByteBuffer>> e : existing.entrySet()) {
      tables.add(new LmdbStateTable(this, e.getKey(), e.getValue()));
    }
  }

  private void adviseHugePages() {
    EnvInfo info = env.info();
    LmdbHugePages.advise(info.mapAddress, info.mapSize);
  }

  private void closeEnv() {
    if (env == null) {
      return;
    }
    awaitCopy();
    if (readTxn != null) {
      // A reset reader is only freed by an abort, which lmdbjava does for an active one.
      if (!readTxnActive) {
        readTxn.renew();
      }
      readTxn.close();
      readTxn = null;
      readTxnActive = false;
    }
    env.close();
    env = null;
  }

  private void checkOpen() {
    if (closed || env == null) {
      throw new IllegalStateException("The lmdb state backend at " + root + " is closed");
    }
  }

  private StateBackendException failure(String what, LmdbException e) {
    return new StateBackendException("LMDB " + what + " in " + envPath + " failed: " + e, e);
  }
}
