package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The binary layout of the version chains (notation as in {@code BackendStateInternals}: {@code
 * lp(x)} = 4-byte big-endian length then the bytes, {@code ts(t)} = 8-byte big-endian millis with
 * the sign bit flipped).
 *
 * <p>Every row of {@code beam_state} that belongs to an exported state id has a <b>chain</b>: the
 * writes of that row, each as one <b>entry</b> {@code ts(stamp) op} (its chain stamp, then what it
 * did). A chain is identified by its <b>row key</b>
 *
 * <pre>lp(state id) lp(encoded key) lp(namespace) lp(suffix)</pre>
 *
 * where {@code suffix} is the {@code beam_state} row key's part after the cell's address ({@code
 * 0x01} + element, map key or timestamp; empty for the cell's own row). So one state id's chains
 * are the prefix {@code lp(id)}, one key's chains within it the prefix {@code lp(id) lp(key)} (ON
 * KEY), and one cell's rows the prefix {@code lp(id) lp(key) lp(namespace)} (the <b>cell
 * prefix</b>).
 *
 * <p>A chain is kept in two places:
 *
 * <ul>
 *   <li>its <b>base</b>, in table {@value #HISTORY_TABLE} under {@code row key ts(BASE_STAMP)}: a
 *       list of entries stamped {@link #BASE_STAMP} that replays to the row's state at the last
 *       prune's horizon ({@code pruned_before}), or at the start of an on-demand recording;
 *   <li>its entries since, in <b>runs</b> (pages of {@link ChainRun}s) in table {@value
 *       #RUNS_TABLE}: each flush of the instance's write buffer writes the rows it touched, sorted
 *       by row key, as one run per <b>segment</b> (an entry's stamp rounded down to the prune step,
 *       {@link #segmentOf}), so that a prune at a segment boundary folds whole runs into the bases
 *       and drops them. Runs are ordered by when they were written ({@link ChainRuns}).
 * </ul>
 *
 * A row's chain is its base's entries, then its entries in each run in run order: write order,
 * except that a flush puts a row's entries of different segments into different runs, which only
 * reorders entries of different stamps.
 *
 * <p>Entry ops: for <b>put rows</b> (value, combining, set element, map entry) the bytes the write
 * stored in {@code beam_state} (they start with the 8-byte updated_at, so are never empty), or the
 * empty op for a delete; the row's state after a stamp is its last op at or before it. For <b>list
 * rows</b> (bag, multimap entry, ordered-list timestamp) an appended element's stored bytes, or the
 * empty op for a delete (the list restarts empty). A version at T replays a row's entries with
 * stamp &lt; T from an empty row, ordered by (stamp, chain order): a reader sorts them stably by
 * stamp (writes at an event time below an earlier write's, e.g. a timer that fires after a later
 * element, come in out of stamp order). Of a put row's consecutive entries at one stamp only the
 * last counts (the later write is the row's state after that stamp anyway), so a writer may drop
 * the earlier ones ({@link ChainWriteBuffer} does within a flush).
 *
 * <p>Table {@value #META_TABLE} holds the horizon of the last prune (key {@code pruned_before},
 * value 8-byte big-endian millis). All three tables are the operator's, so the history travels with
 * its snapshots.
 */
public final class ChainLayout {
  public static final String HISTORY_TABLE = "beam_state_history";
  public static final String META_TABLE = "beam_state_history_meta";
  public static final String RUNS_TABLE = "beam_state_history_runs";

  /** Chain stamp of a base's entries, and the last 8 bytes of its key: below every real stamp. */
  static final long BASE_STAMP = Long.MIN_VALUE;

  /** The one segment of every entry when the owner does not prune in steps. */
  static final long LIVE_SEGMENT = Long.MIN_VALUE + 1;

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

  /**
   * The row {@code key -> value} of {@value #RUNS_TABLE} as an instance that owns only the encoded
   * keys {@code keepEncodedKey} accepts restores it (at another parallelism): a run's directory row
   * as it is, a page with the rows of those keys only; null when none is left.
   */
  public static byte[] runRowWithKeys(byte[] key, byte[] value, Predicate<byte[]> keepEncodedKey) {
    return ChainRuns.rowWithKeys(key, value, keepEncodedKey);
  }

  /** Whether {@code key} of {@value #RUNS_TABLE} is a page's (its value a run of rows). */
  public static boolean isRunPage(byte[] key) {
    return ChainRuns.isPage(key);
  }

  /** Length of the cell prefix at the start of a row key (a chain key without its segment). */
  static int cellPrefixLengthOfRow(byte[] rowKey) {
    try {
      int pos = OrderedBytes.skipLengthPrefixed(rowKey, 0);
      pos = OrderedBytes.skipLengthPrefixed(rowKey, pos);
      pos = OrderedBytes.skipLengthPrefixed(rowKey, pos);
      if (OrderedBytes.skipLengthPrefixed(rowKey, pos) != rowKey.length) {
        throw corrupt(rowKey);
      }
      return pos;
    } catch (IndexOutOfBoundsException e) {
      throw corrupt(rowKey);
    }
  }

  /** Length of a base's key without its last 8 bytes: the row key. */
  static int rowPrefixLength(byte[] key) {
    return key.length - STAMP_BYTES;
  }

  /** Where the row's suffix starts, after its length. */
  static int suffixOffset(int cellPrefixLength) {
    return cellPrefixLength + 4;
  }

  /** The last 8 bytes of a base's key ({@link #BASE_STAMP}). */
  static long segment(byte[] key) {
    return OrderedBytes.readOrderedLong(key, key.length - STAMP_BYTES);
  }

  /**
   * Segment width: the owner's prune step ({@code pruneStepMillis}; 0, unknown: one {@link
   * #LIVE_SEGMENT}), so that its horizons fall on run boundaries.
   */
  static long segmentMillis(long pruneStepMillis) {
    return Math.max(0, pruneStepMillis);
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
