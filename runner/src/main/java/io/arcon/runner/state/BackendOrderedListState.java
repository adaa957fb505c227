package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * OrderedListState: one list row per distinct timestamp, key {@code address + 0x01 +
 * orderedLong(timestamp millis)}, elements {@code [updated_at][coder(value)]} appended in arrival
 * order. Key order is time order, so a range read or clear is one range scan or range delete, and
 * values with equal timestamps keep their insertion order.
 */
final class BackendOrderedListState<T> extends BackendState implements OrderedListState<T> {
  private final Coder<T> coder;
  private final byte[] prefix;

  BackendOrderedListState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<T> coder) {
    super(internals, table, address, history);
    this.coder = coder;
    this.prefix = elementPrefix(address);
  }

  @Override
  public void add(TimestampedValue<T> value) {
    byte[] rowKey = coding().keyWithTimestamp(prefix, value.getTimestamp().getMillis());
    byte[] element = coding().stamped(now(), coder, value.getValue());
    table.append(rowKey, element);
    if (history != null) {
      history.append(rowKey, address.length, element);
    }
  }

  @Override
  public Iterable<TimestampedValue<T>> read() {
    try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
      return collect(it);
    }
  }

  @Override
  public Iterable<TimestampedValue<T>> readRange(Instant minTimestamp, Instant limitTimestamp) {
    if (!minTimestamp.isBefore(limitTimestamp)) {
      return new ArrayList<>();
    }
    try (CloseableIterator<StateEntry> it =
        table.scan(
            coding().keyWithTimestamp(prefix, minTimestamp.getMillis()),
            coding().keyWithTimestamp(prefix, limitTimestamp.getMillis()))) {
      return collect(it);
    }
  }

  private List<TimestampedValue<T>> collect(CloseableIterator<StateEntry> it) {
    List<TimestampedValue<T>> result = new ArrayList<>();
    while (it.hasNext()) {
      StateEntry e = it.next();
      Instant ts = Instant.ofEpochMilli(OrderedBytes.readOrderedLong(e.key(), prefix.length));
      for (byte[] element : e.elements()) {
        result.add(TimestampedValue.of(StateCoding.decodeStamped(coder, element), ts));
      }
    }
    return result;
  }

  @Override
  public void clearRange(Instant minTimestamp, Instant limitTimestamp) {
    if (!minTimestamp.isBefore(limitTimestamp)) {
      return;
    }
    byte[] from = coding().keyWithTimestamp(prefix, minTimestamp.getMillis());
    byte[] to = coding().keyWithTimestamp(prefix, limitTimestamp.getMillis());
    if (history != null) {
      history.deleteRowsInRange(table, from, to, address.length);
    }
    table.deleteRange(from, to);
  }

  @Override
  public OrderedListState<T> readRangeLater(Instant minTimestamp, Instant limitTimestamp) {
    return this;
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> !anyWithPrefix(table, prefix));
  }

  @Override
  public OrderedListState<T> readLater() {
    return this;
  }

  @Override
  public void clear() {
    deleteAllRows();
  }
}
