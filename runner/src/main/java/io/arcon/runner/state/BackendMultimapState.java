package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.StateTable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.ReadableState;

/**
 * MultimapState: one list row per map key (see {@link BackendMapLikeState}), elements {@code
 * [updated_at][valueCoder(v)]} added with {@link StateTable#append}. Every read method returns a
 * view that reads when {@code read()} is called and copies, so later writes do not change an
 * iterable already returned.
 */
final class BackendMultimapState<K, V> extends BackendMapLikeState<K, V>
    implements MultimapState<K, V> {

  BackendMultimapState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<K> keyCoder,
      Coder<V> valueCoder) {
    super(internals, table, address, history, keyCoder, valueCoder);
  }

  private List<V> decodeValues(List<byte[]> stored) {
    List<V> result = new ArrayList<>(stored.size());
    for (byte[] element : stored) {
      result.add(StateCoding.decodeStamped(valueCoder, element));
    }
    return result;
  }

  @Override
  public void put(K key, V value) {
    byte[] rowKey = rowKey(key);
    byte[] element = coding().stamped(now(), valueCoder, value);
    table.append(rowKey, element);
    if (history != null) {
      history.append(rowKey, address.length, element);
    }
  }

  @Override
  public ReadableState<Iterable<V>> get(K key) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(() -> decodeValues(table.getList(rowKey)));
  }

  @Override
  public ReadableState<Iterable<Map.Entry<K, V>>> entries() {
    return readRows(
        (row, entries) -> {
          K key = keyOf(row);
          for (byte[] element : row.elements()) {
            entries.add(
                new AbstractMap.SimpleImmutableEntry<>(
                    key, StateCoding.decodeStamped(valueCoder, element)));
          }
        });
  }

  @Override
  public ReadableState<Boolean> containsKey(K key) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(() -> !table.getList(rowKey).isEmpty());
  }
}
