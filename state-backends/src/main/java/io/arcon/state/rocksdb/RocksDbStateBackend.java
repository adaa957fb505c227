package io.arcon.state.rocksdb;

import io.arcon.state.CloseableIterator;
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
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.WriteOptions;

/**
 * The LSM engine for write-heavy and larger-than-memory state: one RocksDB per backend in {@code
 * <directory>/rocksdb}, one column family per table.
 *
 * <p>Durability: writes skip the write-ahead log (the epoch snapshots are what recovery uses), so
 * after a process kill a reopened directory holds exactly what was in SST files: every write before
 * the last {@link #flush()}, {@link #snapshot} or clean {@link #close()}, plus whatever RocksDB had
 * flushed on its own because a memtable filled up. Writes after that are lost.
 */
public final class RocksDbStateBackend implements StateBackend {
  public static final String ENGINE = "rocksdb";

  /** Column families carry this prefix so no table name can collide with RocksDB's "default". */
  private static final String TABLE_PREFIX = "t.";

  /** Full memtables merged into one L0 file by a flush (at most; see the column family options). */
  private static final int MEMTABLES_PER_FLUSH = 4;

  static {
    // From one kept copy per user and version, not a temp file per JVM (see NativeLibraries).
    NativeLibraries.loadRocksDb();
  }

  private final Path root;
  private final Path dbPath;
  private final LRUCache blockCache;
  private final BloomFilter bloomFilter;
  private final StringAppendOperator appendOperator;
  private final ColumnFamilyOptions columnFamilyOptions;
  private final DBOptions dbOptions;
  private final WriteOptions writeOptions;
  private final SerializedWriteBatch writeBackBatch = new SerializedWriteBatch();
  private final FlushOptions flushOptions;
  private final ReadOptions readOptions;
  private ByteBuffer keyBuffer = ByteBuffer.allocateDirect(256);
  private ByteBuffer argumentBuffer = ByteBuffer.allocateDirect(4096);
  private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);

  private final RocksDbOptions options;
  private final RowCacheMemory rowCacheMemory;
  private final TableRegistry<RocksDbStateTable> tables = new TableRegistry<>(this::newTable);
  private final Set<RocksDbScan> openScans = Collections.newSetFromMap(new IdentityHashMap<>());
  private RocksDB db;
  private ColumnFamilyHandle defaultHandle;
  private boolean closed;

  public RocksDbStateBackend(Path directory, RocksDbOptions options) {
    this(directory, options, RowCacheMemory.shared());
  }

  RocksDbStateBackend(Path directory, RocksDbOptions options, RowCacheMemory rowCacheMemory) {
    this.root = directory;
    this.dbPath = directory.resolve("rocksdb");
    this.options = options;
    this.rowCacheMemory = rowCacheMemory;
    this.blockCache = new LRUCache(options.blockCacheBytes());
    this.bloomFilter = new BloomFilter(10);
    this.appendOperator = new StringAppendOperator("");
    BlockBasedTableConfig tableConfig =
        new BlockBasedTableConfig()
            .setBlockCache(blockCache)
            .setFilterPolicy(bloomFilter)
            // A hash index inside each data block: a point get finds its key without a binary
            // search over the block's restart points; scans are unaffected.
            .setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash)
            .setDataBlockHashTableUtilRatio(0.75);
    this.columnFamilyOptions =
        new ColumnFamilyOptions()
            .setMergeOperator(appendOperator)
            .setWriteBufferSize(options.writeBufferBytes())
            .setMaxWriteBufferNumber(options.maxWriteBufferNumber())
            // Small memtables keep inserts in cache, but flushed one by one they would make small
            // L0 files, and with random keys every L0->L1 compaction rewrites most of L1: merge
            // several full memtables into one L0 file instead, leaving two to fill meanwhile.
            .setMinWriteBufferNumberToMerge(
                Math.max(1, Math.min(MEMTABLES_PER_FLUSH, options.maxWriteBufferNumber() - 2)))
            // Without the row cache, a put of a key the active memtable holds overwrites its value
            // there when the new value is no larger, instead of adding a version: a state updated
            // per element (a counter over 10k keys) then keeps one skiplist node per key rather
            // than filling memtable after memtable with versions, whose deeper skiplists every get
            // and put walked at a cache miss per level (+45% el/s for a ValueState per element).
            // Its costs: every put of a key the memtable lacks walks the skiplist twice (look,
            // then insert), no RocksDB snapshots (unused: checkpoints flush first), no backward
            // iteration and no range tombstones (deletes go key by key, see
            // RocksDbStateTable#deleteRange), and a scan may show a later overwrite of a key
            // ahead of it, which the StateTable contract allows (heap and lmdb do the same). With
            // the row cache (the default) a hot key is rewritten there instead, and RocksDB gets
            // each dirty row once per write-back, mostly keys its memtable lacks: a plain insert.
            .setInplaceUpdateSupport(options.rowCacheBytes() == 0)
            // A get first searches every memtable (a skiplist of up to writeBufferBytes); a bloom
            // filter over their whole keys skips the ones that cannot hold the key.
            .setMemtableWholeKeyFiltering(true)
            .setMemtablePrefixBloomSizeRatio(0.1)
            // Random point gets read a block each from the page cache; decompressing it (Snappy
            // by default) would cost more than the lookup itself. Only the bottommost level,
            // which holds most of the data and is read least per byte, is compressed (LZ4: the
            // cheapest to decode).
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION)
            .setTableFormatConfig(tableConfig);
    this.dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            // One thread writes (the backend's owner), so the write path needs neither
            // concurrent memtable inserts nor spinning for other writers.
            .setAllowConcurrentMemtableWrite(false)
            .setEnableWriteThreadAdaptiveYield(false);
    this.writeOptions = new WriteOptions().setDisableWAL(true);
    this.flushOptions = new FlushOptions().setWaitForFlush(true);
    this.readOptions = new ReadOptions();
    try {
      openDb();
    } catch (RuntimeException e) {
      closeOptions();
      throw e;
    }
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
    writeBackAll();
    try {
      db().flush(flushOptions, allHandles());
    } catch (RocksDBException e) {
      throw new StateBackendException("RocksDB flush of " + dbPath + " failed: " + e, e);
    }
  }

  @Override
  public SnapshotHandle snapshot(long epoch, Path directory) {
    checkpoint(directory);
    return SnapshotManifest.write(ENGINE, epoch, directory);
  }

  /**
   * The checkpoint is taken now (a flush, then hard links to the immutable SST files: cheap);
   * fsyncing and checksumming those files, which reads all of them, is left to a snapshot thread.
   * Compactions may delete the live SST files meanwhile; the links keep the checkpoint's.
   */
  @Override
  public CompletableFuture<SnapshotHandle> snapshotAsync(long epoch, Path directory) {
    checkpoint(directory);
    return SnapshotThreads.supply(() -> SnapshotManifest.write(ENGINE, epoch, directory));
  }

  private void checkpoint(Path directory) {
    RocksDB current = db();
    FileTrees.requireEmptyOrAbsent(directory);
    try {
      // A checkpoint refuses an existing directory; an empty one is allowed by the SPI.
      Files.deleteIfExists(directory);
      Files.createDirectories(directory.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new StateBackendException("Cannot prepare snapshot directory " + directory, e);
    }
    // Memtables are not in any file (no WAL), so they must reach SST files before the
    // checkpoint links them.
    flush();
    try (Checkpoint checkpoint = Checkpoint.create(current)) {
      checkpoint.createCheckpoint(directory.toString());
    } catch (RocksDBException e) {
      throw new StateBackendException(
          "RocksDB checkpoint into " + directory + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void restore(SnapshotHandle handle) {
    db();
    // A refused snapshot leaves the content as it was, cached writes included.
    writeBackAll();
    SnapshotManifest manifest = SnapshotManifest.verify(handle, ENGINE);
    DirectorySwap.restore(handle, manifest, "RocksDB", root, dbPath, this::closeDb, this::openDb);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (db != null) {
        // Without a WAL, only flushed memtables are on disk; a clean close keeps every write.
        flush();
      }
    } finally {
      closeDb();
      closeOptions();
    }
  }

  @Override
  public void dispose() {
    if (!closed) {
      closed = true;
      closeDb();
      closeOptions();
    }
    FileTrees.deleteRecursively(dbPath);
    FileTrees.deleteRecursively(root.resolve("rocksdb.restoring"));
    FileTrees.deleteRecursively(root.resolve("rocksdb.previous"));
    FileTrees.deleteIfEmpty(root);
  }

  // ------------------------------------------------------------------ used by tables and scans

  /** Every table's cached writes into RocksDB. */
  private void writeBackAll() {
    for (RocksDbStateTable table : tables) {
      table.writeBack();
    }
  }

  RocksDB db() {
    RocksDB current = db;
    if (current == null) {
      throw new IllegalStateException("The rocksdb state backend at " + root + " is closed");
    }
    return current;
  }

  /**
   * The scratch batch of the tables' write-backs (one at a time: the backend is single-threaded).
   */
  SerializedWriteBatch writeBackBatch() {
    return writeBackBatch;
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  /**
   * Point reads and writes go through reused direct buffers: the byte[] variants of RocksJava copy
   * each array into a fresh native allocation (and a get returns a new array from native code), the
   * ByteBuffer variants pass addresses. The backend is used by one thread at a time, so one pair of
   * buffers serves every table.
   */
  byte[] get(ColumnFamilyHandle handle, byte[] key) throws RocksDBException {
    ByteBuffer k = keyBuffer(key);
    ByteBuffer v = valueBuffer;
    v.clear();
    int size = db().get(handle, readOptions, k, v);
    if (size == RocksDB.NOT_FOUND) {
      return null;
    }
    byte[] out = new byte[size];
    if (size <= v.capacity()) {
      v.get(v.position(), out);
      return out;
    }
    // Larger than the buffer: read it again into one that fits (and keep that one).
    valueBuffer = ByteBuffer.allocateDirect(Math.max(size, 2 * v.capacity()));
    return get(handle, key);
  }

  void put(ColumnFamilyHandle handle, byte[] key, byte[] value) throws RocksDBException {
    ByteBuffer k = keyBuffer(key);
    db().put(handle, writeOptions, k, argumentBuffer(value));
  }

  void merge(ColumnFamilyHandle handle, byte[] key, byte[] operand) throws RocksDBException {
    ByteBuffer k = keyBuffer(key);
    db().merge(handle, writeOptions, k, argumentBuffer(operand));
  }

  private ByteBuffer keyBuffer(byte[] key) {
    if (key.length > keyBuffer.capacity()) {
      keyBuffer = ByteBuffer.allocateDirect(Math.max(key.length, 2 * keyBuffer.capacity()));
    }
    keyBuffer.clear();
    keyBuffer.put(key).flip();
    return keyBuffer;
  }

  private ByteBuffer argumentBuffer(byte[] value) {
    if (value.length > argumentBuffer.capacity()) {
      argumentBuffer =
          ByteBuffer.allocateDirect(Math.max(value.length, 2 * argumentBuffer.capacity()));
    }
    argumentBuffer.clear();
    argumentBuffer.put(value).flip();
    return argumentBuffer;
  }

  CloseableIterator<StateEntry> openScan(RocksDbStateTable table, byte[] from, byte[] to) {
    RocksDbScan scan = new RocksDbScan(this, table, from, to);
    openScans.add(scan);
    return scan;
  }

  void scanClosed(RocksDbScan scan) {
    openScans.remove(scan);
  }

  // ------------------------------------------------------------------ lifecycle internals

  private void openDb() {
    try {
      Files.createDirectories(dbPath);
      List<byte[]> families = existingColumnFamilies();
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      descriptors.add(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, columnFamilyOptions));
      for (byte[] family : families) {
        if (!java.util.Arrays.equals(family, RocksDB.DEFAULT_COLUMN_FAMILY)) {
          descriptors.add(new ColumnFamilyDescriptor(family, columnFamilyOptions));
        }
      }
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      db = RocksDB.open(dbOptions, dbPath.toString(), descriptors, handles);
      defaultHandle = handles.get(0);
      Map<String, ColumnFamilyHandle> byTable = new LinkedHashMap<>();
      for (int i = 1; i < handles.size(); i++) {
        String family = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
        if (family.startsWith(TABLE_PREFIX)) {
          byTable.put(family.substring(TABLE_PREFIX.length()), handles.get(i));
        }
      }
      // Tables handed out before a restore keep working: re-bind them, recreating (empty) the
      // ones the snapshot does not have.
      for (RocksDbStateTable table : tables) {
        ColumnFamilyHandle h = byTable.remove(table.name());
        table.rebind(h != null ? h : createColumnFamily(table.name()));
      }
      for (Map.Entry<String, ColumnFamilyHandle> e : byTable.entrySet()) {
        tables.add(new RocksDbStateTable(this, e.getKey(), e.getValue(), options, rowCacheMemory));
      }
    } catch (RocksDBException | IOException e) {
      throw new StateBackendException("Cannot open RocksDB at " + dbPath + ": " + e, e);
    }
  }

  private List<byte[]> existingColumnFamilies() throws RocksDBException {
    if (!Files.exists(dbPath.resolve("CURRENT"))) {
      return List.of();
    }
    try (Options options = new Options(dbOptions, columnFamilyOptions)) {
      return RocksDB.listColumnFamilies(options, dbPath.toString());
    }
  }

  private RocksDbStateTable newTable(String name) {
    return new RocksDbStateTable(this, name, createColumnFamily(name), options, rowCacheMemory);
  }

  private ColumnFamilyHandle createColumnFamily(String name) {
    try {
      return db().createColumnFamily(
              new ColumnFamilyDescriptor(
                  (TABLE_PREFIX + name).getBytes(StandardCharsets.UTF_8), columnFamilyOptions));
    } catch (RocksDBException e) {
      throw new StateBackendException(
          "Cannot create RocksDB column family for table '" + name + "': " + e.getMessage(), e);
    }
  }

  private List<ColumnFamilyHandle> allHandles() {
    List<ColumnFamilyHandle> handles = new ArrayList<>(tables.size() + 1);
    handles.add(defaultHandle);
    for (RocksDbStateTable table : tables) {
      handles.add(table.handle());
    }
    return handles;
  }

  private void closeDb() {
    // Native iterators must not outlive the database they read.
    for (RocksDbScan scan : new ArrayList<>(openScans)) {
      scan.close();
    }
    if (db == null) {
      return;
    }
    for (RocksDbStateTable table : tables) {
      if (table.handle() != null) {
        table.handle().close();
      }
    }
    defaultHandle.close();
    db.close();
    db = null;
  }

  private void closeOptions() {
    for (RocksDbStateTable table : tables) {
      table.releaseCache();
    }
    writeOptions.close();
    readOptions.close();
    flushOptions.close();
    dbOptions.close();
    columnFamilyOptions.close();
    appendOperator.close();
    bloomFilter.close();
    blockCache.close();
  }
}
