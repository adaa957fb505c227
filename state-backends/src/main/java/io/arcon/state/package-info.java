/**
 * The state-backend SPI, its registry ({@link io.arcon.state.StateBackends}) and the table registry
 * every engine keeps its named tables in ({@link io.arcon.state.TableRegistry}).
 *
 * <p>Engines, all meeting the same contract (checked by one conformance suite):
 *
 * <ul>
 *   <li>{@code heap} ({@link io.arcon.state.heap}): per table, an open-addressing hash index in
 *       memory ({@code SlabHashMap}: linear probing over 64-byte cells that hold small key-value
 *       pairs inline, larger ones in big {@code byte[]} slab chunks, lists as growable framed
 *       buffers), plus the keys' unsigned order for scans, built only when a scan asks for it
 *       ({@code HeapIndex}); fastest; nothing on disk but snapshots; a killed process keeps
 *       nothing, recovery is from the last snapshot.
 *   <li>{@code rocksdb} ({@link io.arcon.state.rocksdb}): LSM tree, one column family per table,
 *       write-ahead log off. After a kill, reopening the directory finds every write made before
 *       the last {@code flush()}, snapshot or clean close (plus memtables RocksDB flushed on its
 *       own); later writes are lost.
 *   <li>{@code lmdb} ({@link io.arcon.state.lmdb}): memory-mapped B+tree, one named database per
 *       table, writes batched into transactions. After a kill, reopening finds every committed
 *       batch (at least everything before the last {@code flush()}); the open batch is lost. Keys
 *       are limited to 510 bytes.
 * </ul>
 *
 * <p>Snapshots are directories with a {@code MANIFEST.arcon} (sizes and CRC32C of every file)
 * written last and atomically; restore verifies it before touching the live state and refuses
 * anything missing, cut or corrupt with {@link io.arcon.state.CorruptSnapshotException}.
 */
package io.arcon.state;
