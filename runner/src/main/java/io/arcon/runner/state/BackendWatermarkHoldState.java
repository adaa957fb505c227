package io.arcon.runner.state;

import io.arcon.state.StateTable;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.joda.time.Instant;

/**
 * WatermarkHoldState: one row in the hold table at the cell's address holding {@code
 * [updated_at][hold millis]}, mirrored by one row in the hold index keyed {@code orderedLong(hold)
 * + address}, so the minimum hold over all keys is the index's first row. Adding combines the new
 * timestamp with the current hold through the {@link TimestampCombiner} (EARLIEST keeps the
 * minimum, LATEST the maximum, END_OF_WINDOW the first added), as runners-core's in-memory hold.
 */
final class BackendWatermarkHoldState extends BackendState implements WatermarkHoldState {
  private final StateTable index;
  private final TimestampCombiner timestampCombiner;

  BackendWatermarkHoldState(
      BackendStateInternals<?> internals,
      StateTable holds,
      StateTable index,
      byte[] address,
      TimestampCombiner timestampCombiner) {
    super(internals, holds, address, null);
    this.index = index;
    this.timestampCombiner = timestampCombiner;
  }

  @Override
  public TimestampCombiner getTimestampCombiner() {
    return timestampCombiner;
  }

  @Override
  public void add(Instant outputTime) {
    byte[] stored = table.get(address);
    Instant combined;
    if (stored == null) {
      combined = outputTime;
    } else {
      Instant current = holdOf(stored);
      combined = timestampCombiner.combine(current, outputTime);
      if (combined.equals(current)) {
        return;
      }
      index.delete(indexKey(current.getMillis()));
    }
    long updatedAt = now();
    table.put(address, coding().stampedLong(updatedAt, combined.getMillis()));
    index.put(indexKey(combined.getMillis()), coding().stampOnly(updatedAt));
  }

  private byte[] indexKey(long holdMillis) {
    return BackendStateInternals.holdIndexKey(holdMillis, address);
  }

  static Instant holdOf(byte[] stored) {
    return Instant.ofEpochMilli(OrderedBytes.readRawLong(stored, StateCoding.STAMP_BYTES));
  }

  @Override
  public Instant read() {
    byte[] stored = table.get(address);
    return stored == null ? null : holdOf(stored);
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> table.get(address) == null);
  }

  @Override
  public WatermarkHoldState readLater() {
    return this;
  }

  @Override
  public void clear() {
    byte[] stored = table.get(address);
    if (stored != null) {
      index.delete(indexKey(holdOf(stored).getMillis()));
      table.delete(address);
    }
  }
}
