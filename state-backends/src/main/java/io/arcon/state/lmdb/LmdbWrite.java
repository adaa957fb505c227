package io.arcon.state.lmdb;

import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import java.nio.ByteBuffer;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * One write, kept until its transaction commits. LMDB aborts a transaction that runs out of map
 * space, so the backend grows the map and replays the uncommitted writes in order; every write is
 * therefore a deterministic function of the table content (append re-reads the list on replay).
 */
final class LmdbWrite {
  private enum Kind {
    PUT,
    DELETE,
    DELETE_RANGE,
    APPEND,
    APPEND_FRAMED
  }

  /**
   * No put flags, passed as {@code null} rather than an empty array: lmdbjava 0.9 folds a flags
   * array with a stream on every put and delete (a fifth of an lmdb pipeline's time in a profile),
   * and returns 0 at once for {@code null}.
   */
  private static final PutFlags[] NO_FLAGS = null;

  private final Kind kind;
  private final LmdbStateTable table;
  private final byte[] key;
  private final byte[] argument;

  private LmdbWrite(Kind kind, LmdbStateTable table, byte[] key, byte[] argument) {
    this.kind = kind;
    this.table = table;
    this.key = key;
    this.argument = argument;
  }

  static LmdbWrite put(LmdbStateTable table, byte[] key, byte[] value) {
    return new LmdbWrite(Kind.PUT, table, key, value);
  }

  static LmdbWrite delete(LmdbStateTable table, byte[] key) {
    return new LmdbWrite(Kind.DELETE, table, key, null);
  }

  static LmdbWrite deleteRange(LmdbStateTable table, byte[] from, byte[] toExclusive) {
    return new LmdbWrite(Kind.DELETE_RANGE, table, from, toExclusive);
  }

  static LmdbWrite append(LmdbStateTable table, byte[] key, byte[] element) {
    return new LmdbWrite(Kind.APPEND, table, key, element);
  }

  /** An append of elements already framed ({@link ListFraming}), in one rewrite of the list. */
  static LmdbWrite appendFramed(LmdbStateTable table, byte[] key, byte[] frames) {
    return new LmdbWrite(Kind.APPEND_FRAMED, table, key, frames);
  }

  /**
   * Applies the write and returns roughly how many bytes it dirtied, so the backend can bound a
   * transaction's dirty pages (an append rewrites the whole list).
   */
  long applyTo(Txn<ByteBuffer> txn, LmdbKeys keys) {
    switch (kind) {
      case PUT -> {
        ByteBuffer target = table.dbi().reserve(txn, keys.encode(key), argument.length, NO_FLAGS);
        target.put(argument);
        return key.length + argument.length;
      }
      case DELETE -> {
        table.dbi().delete(txn, keys.encode(key));
        return key.length;
      }
      case APPEND, APPEND_FRAMED -> {
        ByteBuffer existing = table.dbi().get(txn, keys.encode(key));
        int oldLength = existing == null ? 0 : existing.remaining();
        boolean framed = kind == Kind.APPEND_FRAMED;
        int added = framed ? argument.length : ListFraming.framedSize(argument.length);
        byte[] combined = new byte[oldLength + added];
        if (existing != null) {
          existing.get(combined, 0, oldLength);
        }
        if (framed) {
          System.arraycopy(argument, 0, combined, oldLength, argument.length);
        } else {
          ListFraming.frameInto(combined, oldLength, argument);
        }
        // Copied out first: the reservation may reuse the pages the old value lives in.
        table.dbi().reserve(txn, keys.encode(key), combined.length, NO_FLAGS).put(combined);
        return key.length + combined.length;
      }
      case DELETE_RANGE -> {
        deleteRange(txn, keys);
        return key.length + argument.length;
      }
      default -> throw new IllegalStateException("Unknown write kind " + kind);
    }
  }

  private void deleteRange(Txn<ByteBuffer> txn, LmdbKeys keys) {
    byte[] toExclusive = argument;
    if (KeyBytes.compare(key, toExclusive) >= 0) {
      return;
    }
    try (Cursor<ByteBuffer> cursor = table.dbi().openCursor(txn)) {
      // Re-seek after each delete rather than rely on cursor position after a delete: the keys
      // between the start and the deleted key are gone, so the seek lands on the next one.
      while (cursor.get(keys.encodeBound(key), GetOp.MDB_SET_RANGE)) {
        byte[] found = keys.decode(cursor.key());
        if (KeyBytes.compare(found, key) < 0) {
          // Only possible for a start bound longer than any key: step to the real start.
          if (!cursor.next()) {
            return;
          }
          found = keys.decode(cursor.key());
        }
        if (KeyBytes.compare(found, toExclusive) >= 0) {
          return;
        }
        cursor.delete(NO_FLAGS);
      }
    }
  }
}
