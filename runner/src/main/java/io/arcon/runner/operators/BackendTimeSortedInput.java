package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * A {@link TimeSortedInput} in the operator's state backend (rocksdb, lmdb): elements wait there,
 * ordered by timestamp, until the input watermark passes them, so a large buffer spills like any
 * other state.
 *
 * <p>One table for the whole instance (row key: the timestamp as ordered bytes, then a sequence
 * number; value: the encoded key, then the element) instead of runners-core's per-key bag: adding
 * is one put, releasing is one ordered scan and one range delete, with no per-key sort or timer.
 * Being in the backend, the buffer spills with rocksdb and lmdb like any other state.
 */
public final class BackendTimeSortedInput<InT> implements TimeSortedInput<InT> {
  static final String TABLE = "time_sorted_input";

  /** Buffered elements read per scan while releasing, so a long release holds no open scan. */
  private static final int RELEASE_BATCH = 1024;

  private final StateTable table;
  private final Coder<WindowedValue<InT>> coder;
  private long sequence;
  private long size;

  /**
   * A key below which the table holds no row (released rows are deleted), or null: releases scan
   * from here, so that an LSM engine (rocksdb) does not step over the tombstones of every earlier
   * release on each one. An element added below it lowers it.
   */
  private byte[] emptyBelow;

  @SuppressWarnings({"unchecked", "rawtypes"})
  public BackendTimeSortedInput(
      StateBackend backend, Coder<InT> inputCoder, Coder<? extends BoundedWindow> w) {
    this.table = backend.table(TABLE);
    this.coder = (Coder) WindowedValues.getFullCoder(inputCoder, (Coder) w);
    // Resuming over an existing buffer (a restored backend): new rows sort after every old one.
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      while (it.hasNext()) {
        byte[] key = it.next().key();
        sequence = Math.max(sequence, ByteBuffer.wrap(key, 8, 8).getLong() + 1);
        size++;
      }
    }
  }

  @Override
  public void add(byte[] encodedKey, WindowedValue<InT> element) {
    add(encodedKey, element, sequence++);
  }

  /** The sequence number the next {@link #add} takes: above that of every buffered element. */
  long nextSequence() {
    return sequence;
  }

  /**
   * Buffers {@code element} with the arrival number {@code order} (unique, at least {@link
   * #nextSequence} when the buffer restarts from a restored backend), for a caller that numbers
   * arrivals across several buffers.
   */
  void add(byte[] encodedKey, WindowedValue<InT> element, long order) {
    sequence = Math.max(sequence, order + 1);
    byte[] rowKey =
        ByteBuffer.allocate(16)
            .putLong(orderedMillis(element.getTimestamp().getMillis()))
            .putLong(order)
            .array();
    try {
      byte[] encoded = CoderUtils.encodeToByteArray(coder, element);
      byte[] value =
          ByteBuffer.allocate(4 + encodedKey.length + encoded.length)
              .putInt(encodedKey.length)
              .put(encodedKey)
              .put(encoded)
              .array();
      table.put(rowKey, value);
      size++;
      if (emptyBelow != null && KeyBytes.compare(rowKey, emptyBelow) < 0) {
        emptyBelow = rowKey;
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot buffer an element for time-sorted input with coder " + coder, e);
    }
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void releaseBefore(long watermark, Release<InT> release) throws Exception {
    while (true) {
      List<Buffered<InT>> batch = takeBefore(watermark);
      if (batch.isEmpty()) {
        return;
      }
      for (Buffered<InT> buffered : batch) {
        release.release(buffered.encodedKey(), buffered.element());
      }
    }
  }

  /** One buffered element with its timestamp and arrival number. */
  record Buffered<InT>(long timestamp, long order, byte[] encodedKey, WindowedValue<InT> element) {}

  /**
   * Takes the first (up to {@value #RELEASE_BATCH}) elements with a timestamp below {@code
   * watermark} out of the buffer, in timestamp order; empty when there are none. They are deleted
   * before the caller runs user code on them, so a failing element is not released twice.
   */
  List<Buffered<InT>> takeBefore(long watermark) throws IOException {
    byte[] end =
        watermark == Long.MAX_VALUE
            ? null
            : ByteBuffer.allocate(8).putLong(orderedMillis(watermark)).array();
    byte[] from = emptyBelow;
    List<StateEntry> batch = new ArrayList<>(Math.min(RELEASE_BATCH, (int) Math.max(size, 1)));
    try (CloseableIterator<StateEntry> it = table.scan(from, end)) {
      while (it.hasNext() && batch.size() < RELEASE_BATCH) {
        batch.add(it.next());
      }
    }
    if (batch.isEmpty()) {
      if (end != null && (from == null || KeyBytes.compare(from, end) < 0)) {
        emptyBelow = end; // nothing is left below the watermark
      }
      return List.of();
    }
    byte[] last = batch.get(batch.size() - 1).key();
    table.deleteRange(from == null ? new byte[0] : from, successor(last));
    size -= batch.size();
    emptyBelow = successor(last);
    List<Buffered<InT>> out = new ArrayList<>(batch.size());
    for (StateEntry entry : batch) {
      ByteBuffer rowKey = ByteBuffer.wrap(entry.key());
      long timestamp = fromOrdered(rowKey.getLong());
      long order = rowKey.getLong();
      ByteBuffer value = ByteBuffer.wrap(entry.value());
      byte[] encodedKey = new byte[value.getInt()];
      value.get(encodedKey);
      WindowedValue<InT> element =
          CoderUtils.decodeFromByteArray(
              coder, Arrays.copyOfRange(entry.value(), value.position(), entry.value().length));
      out.add(new Buffered<>(timestamp, order, encodedKey, element));
    }
    return out;
  }

  /** The smallest byte string after {@code key} in unsigned lexicographic order. */
  private static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /** Epoch millis as a long whose unsigned big-endian bytes sort in time order. */
  private static long orderedMillis(long millis) {
    return millis ^ Long.MIN_VALUE;
  }

  private static long fromOrdered(long ordered) {
    return ordered ^ Long.MIN_VALUE;
  }

  @Override
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    HeldElements.write(out, coder, List.of());
  }
}
