package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The binary layout of the version chains (notation as in {@code BackendStateInternals}: {@code
 * lp(x)} = 4-byte big-endian length then the bytes, {@code ts(t)} = 8-byte big-endian millis with
 * the sign bit flipped).
 *
 * <p>Every row of {@code beam_state} that belongs to an exported state id has a <b>chain</b> in
 * table {@value #HISTORY_TABLE}: the writes of that row, each as one <b>entry</b> {@code ts(stamp)
 * op} (its chain stamp, then what it did), kept in lists (SPI {@code append}) under keys
 *
 * <pre>lp(state id) lp(encoded key) lp(namespace) lp(suffix) ts(segment)</pre>
 *
 * where {@code suffix} is the row key's part after the cell's address ({@code 0x01} + element, map
 * key or timestamp; empty for the cell's own row). So one state id's chains are the prefix {@code
 * lp(id)}, one key's chains within it the prefix {@code lp(id) lp(key)} (ON KEY), one cell's rows
 * the prefix {@code lp(id) lp(key) lp(namespace)} (the <b>cell prefix</b>), and one row's segments
 * are contiguous.
 *
 * <p>A write appends one entry to one list instead of adding a key per write: the table holds a few
 * keys per live row, so a write finds its list among as many keys as the state has rows, not among
 * every write of the retained history (on heap, a hash table of all writes cost a cache miss per
 * write). The <b>segment</b> of an entry is its stamp rounded down to {@link #segmentMillis}: the
 * step at which the owner prunes, so that a prune drops whole segments and leaves the ones above
 * its horizon untouched (width 0: one {@link #LIVE_SEGMENT} per row); on lmdb, whose append
 * rewrites the list, at most a minute, so that a list a flush of the write buffer rewrites stays
 * short even for a hot row (a second before writes were buffered; then a key per write, nearly, for
 * a row written less often than every second).
 *
 * <p>Entry ops: for <b>put rows</b> (value, combining, set element, map entry) the bytes the write
 * stored in {@code beam_state} (they start with the 8-byte updated_at, so are never empty), or the
 * empty op for a delete; the row's state after a stamp is its last op at or before it. For <b>list
 * rows</b> (bag, multimap entry, ordered-list timestamp) an appended element's stored bytes, or the
 * empty op for a delete (the list restarts empty). A version at T replays a row's entries with
 * stamp &lt; T from an empty row, ordered by (stamp, write order): entries are appended in write
 * order and a reader sorts them stably by stamp (writes at an event time below an earlier write's,
 * e.g. a timer that fires after a later element, come in out of stamp order). Of a put row's
 * consecutive entries at one stamp only the last counts (the later write is the row's state after
 * that stamp anyway), so a writer may drop the earlier ones ({@link ChainWriteBuffer} does within a
 * flush).
 *
 * <p>Pruning folds the entries below the horizon into the row's <b>base</b> segment {@link
 * #BASE_STAMP} (entries stamped {@link #BASE_STAMP}, the smallest), which replays to the row's
 * state at the horizon.
 *
 * <p>Table {@value #META_TABLE} holds the horizon of the last prune (key {@code pruned_before},
 * value 8-byte big-endian millis), so that it travels with the backend's snapshots.
 */
public final class ChainLayout {
  public static final String HISTORY_TABLE = "beam_state_history";
  public static final String META_TABLE = "beam_state_history_meta";

  /** Chain stamp of a pruned row's base entries, and their segment: below every real stamp. */
  static final long BASE_STAMP = Long.MIN_VALUE;

  /** The one segment of a row's entries above the base on engines with a cheap append. */
  static final long LIVE_SEGMENT = Long.MIN_VALUE + 1;

  /** Widest lmdb segment: a list there is rewritten on every append (once per row and flush). */
  static final long LMDB_SEGMENT_MILLIS = 60_000;

  static final int STAMP_BYTES = 8;

  /** Entry bytes before its op: the chain stamp. */
  static final int ENTRY_HEADER_BYTES = STAMP_BYTES;

  static final byte[] PRUNED_BEFORE_KEY = "pruned_before".getBytes(StandardCharsets.UTF_8);

  private ChainLayout() {}

  /** {@code lp(stateId)}: the prefix of every chain of one state id. */
  static byte[] statePrefix(String stateId) {
    return new OrderedBytes(stateId.length() + 8).writeLengthPrefixed(stateId).toByteArray();
  }

  /** {@code lp(stateId) lp(encodedKey)}: the prefix of one key's chains of one state id. */
  static byte[] keyPrefix(String stateId, byte[] encodedKey) {
    return new OrderedBytes(stateId.length() + encodedKey.length + 8)
        .writeLengthPrefixed(stateId)
        .writeLengthPrefixed(encodedKey)
        .toByteArray();
  }

  /** Length of the cell prefix {@code lp(id) lp(key) lp(namespace)} at the start of {@code key}. */
  static int cellPrefixLength(byte[] key) {
    try {
      int pos = OrderedBytes.skipLengthPrefixed(key, 0);
      pos = OrderedBytes.skipLengthPrefixed(key, pos);
      pos = OrderedBytes.skipLengthPrefixed(key, pos);
      if (pos + 4 + STAMP_BYTES > key.length) {
        throw corrupt(key);
      }
      return pos;
    } catch (IndexOutOfBoundsException e) {
      throw corrupt(key);
    }
  }

  /** Length of {@code key} without its segment: the segments of one row share it. */
  static int rowPrefixLength(byte[] key) {
    return key.length - STAMP_BYTES;
  }

  /** Where the row's suffix starts, after its length. */
  static int suffixOffset(int cellPrefixLength) {
    return cellPrefixLength + 4;
  }

  /** The segment of a chain key. */
  static long segment(byte[] key) {
    return OrderedBytes.readOrderedLong(key, key.length - STAMP_BYTES);
  }

  /**
   * Segment width for {@code engine}: {@code pruneStepMillis} (0: one {@link #LIVE_SEGMENT} per
   * row), on lmdb at most {@link #LMDB_SEGMENT_MILLIS} (also when the step is 0).
   */
  static long segmentMillis(String engine, long pruneStepMillis) {
    long step = Math.max(0, pruneStepMillis);
    if ("lmdb".equals(engine)) {
      return step == 0 ? LMDB_SEGMENT_MILLIS : Math.min(step, LMDB_SEGMENT_MILLIS);
    }
    return step;
  }

  /** The segment of an entry stamped {@code stamp} (not the base) for a segment width. */
  static long segmentOf(long stamp, long segmentMillis) {
    if (segmentMillis <= 0 || stamp < Long.MIN_VALUE + segmentMillis) {
      return LIVE_SEGMENT; // also where rounding down would pass Long.MIN_VALUE
    }
    return Math.max(LIVE_SEGMENT, stamp - Math.floorMod(stamp, segmentMillis));
  }

  /** An entry: {@code ts(stamp)} then {@code op}. */
  static byte[] entry(long stamp, byte[] op) {
    return entry(stamp, op, 0, op.length);
  }

  /** An entry whose op is {@code bytes[offset, offset + length)}. */
  static byte[] entry(long stamp, byte[] bytes, int offset, int length) {
    byte[] entry = new byte[ENTRY_HEADER_BYTES + length];
    writeStamp(entry, stamp);
    System.arraycopy(bytes, offset, entry, ENTRY_HEADER_BYTES, length);
    return entry;
  }

  /** The chain stamp of an entry. */
  static long entryStamp(byte[] entry) {
    return entryStamp(entry, 0, entry.length);
  }

  /** The chain stamp of the entry at {@code bytes[offset, offset + length)}. */
  static long entryStamp(byte[] bytes, int offset, int length) {
    if (length < ENTRY_HEADER_BYTES) {
      throw new IllegalStateException(
          "Table "
              + HISTORY_TABLE
              + " holds an entry of "
              + length
              + " bytes, shorter than its stamp: the table was written by another version of"
              + " ArconRunner or something else; dispose of the backend's state to start over");
    }
    return OrderedBytes.readOrderedLong(bytes, offset);
  }

  /** Whether an entry is a delete (no op bytes). */
  static boolean isDelete(byte[] entry) {
    return entry.length == ENTRY_HEADER_BYTES;
  }

  /** The op of an entry (a copy). */
  static byte[] op(byte[] entry) {
    return Arrays.copyOfRange(entry, ENTRY_HEADER_BYTES, entry.length);
  }

  /** {@code entry} with its stamp replaced by {@code stamp} (a copy). */
  static byte[] restamped(byte[] entry, long stamp) {
    byte[] out = Arrays.copyOf(entry, entry.length);
    writeStamp(out, stamp);
    return out;
  }

  private static void writeStamp(byte[] target, long stamp) {
    writeStamp(target, 0, stamp);
  }

  /** Writes {@code ts(stamp)} at {@code target[offset]}. */
  static void writeStamp(byte[] target, int offset, long stamp) {
    long ordered = stamp ^ Long.MIN_VALUE;
    for (int i = 0; i < STAMP_BYTES; i++) {
      target[offset + STAMP_BYTES - 1 - i] = (byte) (ordered >>> (8 * i));
    }
  }

  /** {@code key} with its segment replaced by {@code segment}. */
  static byte[] withSegment(byte[] key, long segment) {
    byte[] out = Arrays.copyOf(key, key.length);
    long ordered = segment ^ Long.MIN_VALUE;
    for (int i = 0; i < STAMP_BYTES; i++) {
      out[key.length - 1 - i] = (byte) (ordered >>> (8 * i));
    }
    return out;
  }

  /** Whether {@code a} and {@code b} agree on their first {@code length} bytes. */
  static boolean samePrefix(byte[] a, byte[] b, int length) {
    return a.length >= length && b.length >= length && Arrays.equals(a, 0, length, b, 0, length);
  }

  /** Whether {@code key} starts with {@code prefix}. */
  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static IllegalStateException corrupt(byte[] key) {
    return new IllegalStateException(
        "Table "
            + HISTORY_TABLE
            + " holds a key of "
            + key.length
            + " bytes that is not lp(state id) lp(key) lp(namespace) lp(suffix) ts(segment): the"
            + " table was written by something else; dispose of the backend's state to start over");
  }
}
