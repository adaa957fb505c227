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
 * table {@value #HISTORY_TABLE}: one entry per chain stamp at which the row was written, keyed
 *
 * <pre>lp(state id) lp(encoded key) lp(namespace) lp(suffix) ts(chain stamp)</pre>
 *
 * where {@code suffix} is the row key's part after the cell's address ({@code 0x01} + element, map
 * key or timestamp; empty for the cell's own row). So one state id's chains are the prefix {@code
 * lp(id)}, one key's chains within it the prefix {@code lp(id) lp(key)} (ON KEY), one cell's rows
 * the prefix {@code lp(id) lp(key) lp(namespace)} (the <b>cell prefix</b>), and one row's entries
 * are contiguous and ordered by chain stamp.
 *
 * <p>Entry values depend on the kind of row (see {@link ExportedState.Kind#listRows()}):
 *
 * <ul>
 *   <li><b>Put rows</b> (value, combining, set element, map entry): a plain value, the bytes the
 *       write stored in {@code beam_state} (they start with the 8-byte updated_at, so are never
 *       empty), or the empty array for a delete. Two writes at one chain stamp overwrite each
 *       other, and the later one is the row's state after that stamp anyway.
 *   <li><b>List rows</b> (bag, multimap entry, ordered-list timestamp): a list (SPI {@code append})
 *       of operations in write order: an appended element's stored bytes, or the empty element for
 *       a delete (the list restarts empty). Writes at one chain stamp thus keep their order without
 *       a sequence number, and a snapshot restored later continues the same list.
 * </ul>
 *
 * <p>Entries are ordered by (chain stamp, order of the writes at that stamp); a version at T
 * replays a row's entries with stamp &lt; T from an empty row. Pruning folds the entries below the
 * horizon into one <b>base entry</b> at stamp {@link #BASE_STAMP} (the smallest), which replays to
 * the row's state at the horizon.
 *
 * <p>Table {@value #META_TABLE} holds the horizon of the last prune (key {@code pruned_before},
 * value 8-byte big-endian millis), so that it travels with the backend's snapshots.
 */
public final class ChainLayout {
  public static final String HISTORY_TABLE = "beam_state_history";
  public static final String META_TABLE = "beam_state_history_meta";

  /** Chain stamp of a pruned row's base entry: below every real stamp. */
  static final long BASE_STAMP = Long.MIN_VALUE;

  static final int STAMP_BYTES = 8;

  /** The value of a delete (put rows) or the element of one (list rows). */
  static final byte[] DELETE = new byte[0];

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

  /** Length of {@code key} without its chain stamp: the entries of one row share it. */
  static int rowPrefixLength(byte[] key) {
    return key.length - STAMP_BYTES;
  }

  /** Where the row's suffix starts, after its length. */
  static int suffixOffset(int cellPrefixLength) {
    return cellPrefixLength + 4;
  }

  static long stamp(byte[] key) {
    return OrderedBytes.readOrderedLong(key, key.length - STAMP_BYTES);
  }

  /** {@code key} with its chain stamp replaced by {@code stamp}. */
  static byte[] withStamp(byte[] key, long stamp) {
    byte[] out = Arrays.copyOf(key, key.length);
    long ordered = stamp ^ Long.MIN_VALUE;
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
            + " bytes that is not lp(state id) lp(key) lp(namespace) lp(suffix) ts(stamp): the"
            + " table was written by something else; dispose of the backend's state to start over");
  }
}
