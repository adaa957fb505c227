package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.runner.state.StateCoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Rebuilds one cell (key and namespace of one state id) as of a version: fed the cell's rows in key
 * order, each with its chain's entries (base, then runs), it replays each row's entries with chain
 * stamp &lt; T in (stamp, write) order and decodes the rows that exist at T into the Beam-level
 * value of the kind. Reused from cell to cell.
 */
final class CellAssembler {
  /** First byte of a suffix: {@code BackendState.ELEMENT_MARKER}, element rows of a cell. */
  private static final byte ELEMENT_MARKER = 0x01;

  private final ExportedState state;
  private final long versionMillis;
  private final boolean listRows;
  private final List<RowAtVersion> rows = new ArrayList<>();

  private byte[] cellKey;
  private int cellPrefixLength;

  /** Key of the row being replayed; null before the cell's first row. */
  private byte[] rowKey;

  /** The row's entries with stamp &lt; T, in write order. */
  private final List<byte[]> rowEntries = new ArrayList<>();

  private boolean rowEntriesSorted;
  private long lastStamp;

  CellAssembler(ExportedState state, long versionMillis) {
    this.state = state;
    this.versionMillis = versionMillis;
    this.listRows = state.kind().listRows();
    this.rowEntriesSorted = true;
    this.lastStamp = Long.MIN_VALUE;
  }

  /** Starts a cell whose first row key is {@code key}, its cell prefix {@code length} long. */
  void start(byte[] key, int cellPrefixLength) {
    this.cellKey = key;
    this.cellPrefixLength = cellPrefixLength;
    this.rowKey = null;
    rows.clear();
  }

  /**
   * Starts the next row of the current cell (rows come in key order), whose key is {@code rowKey}
   * (a chain key without its segment); its entries follow in write order.
   */
  void startRow(byte[] rowKey) {
    finishRow();
    this.rowKey = rowKey;
  }

  /** Takes one entry {@code ts(stamp) op} of the current row, at {@code bytes[offset, +length)}. */
  void entry(byte[] bytes, int offset, int length) {
    long stamp = ChainLayout.entryStamp(bytes, offset, length);
    if (stamp >= versionMillis) {
      return;
    }
    if (stamp < lastStamp) {
      rowEntriesSorted = false;
    }
    lastStamp = stamp;
    rowEntries.add(Arrays.copyOfRange(bytes, offset, offset + length));
  }

  private void finishRow() {
    if (rowKey == null) {
      return;
    }
    if (!rowEntriesSorted) {
      rowEntries.sort(BY_STAMP); // stable: writes at one stamp keep their order
    }
    int from = ChainLayout.suffixOffset(cellPrefixLength);
    byte[] suffix = Arrays.copyOfRange(rowKey, from, rowKey.length);
    if (listRows) {
      List<byte[]> elements = new ArrayList<>();
      for (byte[] entry : rowEntries) {
        if (ChainLayout.isDelete(entry)) {
          elements.clear();
        } else {
          elements.add(ChainLayout.op(entry));
        }
      }
      if (!elements.isEmpty()) {
        rows.add(new RowAtVersion(suffix, null, elements));
      }
    } else if (!rowEntries.isEmpty()) {
      byte[] last = rowEntries.get(rowEntries.size() - 1);
      if (!ChainLayout.isDelete(last)) {
        rows.add(new RowAtVersion(suffix, ChainLayout.op(last), null));
      }
    }
    rowEntries.clear();
    rowEntriesSorted = true;
    lastStamp = Long.MIN_VALUE;
  }

  private static final Comparator<byte[]> BY_STAMP =
      Comparator.comparingLong(ChainLayout::entryStamp);

  /** The cell at the version, or null when it is empty then. */
  StateHistory.CellVersion finish() {
    finishRow();
    rowKey = null;
    if (rows.isEmpty()) {
      return null;
    }
    // lp(suffix) orders rows by suffix length first; the live state orders them by suffix bytes.
    rows.sort((a, b) -> Arrays.compareUnsigned(a.suffix, b.suffix));
    long updatedAt = Long.MIN_VALUE;
    for (RowAtVersion row : rows) {
      updatedAt = Math.max(updatedAt, row.updatedAt());
    }
    int keyStart = OrderedBytes.skipLengthPrefixed(cellKey, 0);
    byte[] encodedKey = OrderedBytes.readLengthPrefixed(cellKey, keyStart);
    int namespaceStart = OrderedBytes.skipLengthPrefixed(cellKey, keyStart);
    String namespace =
        new String(
            OrderedBytes.readLengthPrefixed(cellKey, namespaceStart), StandardCharsets.UTF_8);
    return new StateHistory.CellVersion(encodedKey, namespace, decode(), updatedAt);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object decode() {
    Coder valueCoder = state.valueCoder();
    switch (state.kind()) {
      case VALUE:
      case COMBINING:
        return StateCoding.decodeStamped(valueCoder, ownRow().stored);
      case BAG:
        return decodeElements(valueCoder, ownRow().elements);
      case SET:
        {
          List<Object> elements = new ArrayList<>(rows.size());
          for (RowAtVersion row : rows) {
            elements.add(StateCoding.decode(valueCoder, elementSuffix(row), 1));
          }
          return elements;
        }
      case MAP:
        {
          Map<Object, Object> map = new LinkedHashMap<>();
          for (RowAtVersion row : rows) {
            map.put(
                StateCoding.decode(state.mapKeyCoder(), elementSuffix(row), 1),
                StateCoding.decodeStamped(valueCoder, row.stored));
          }
          return map;
        }
      case MULTIMAP:
        {
          Map<Object, List<Object>> map = new LinkedHashMap<>();
          for (RowAtVersion row : rows) {
            map.put(
                StateCoding.decode(state.mapKeyCoder(), elementSuffix(row), 1),
                decodeElements(valueCoder, row.elements));
          }
          return map;
        }
      case ORDERED_LIST:
        {
          List<TimestampedValue<Object>> list = new ArrayList<>();
          for (RowAtVersion row : rows) {
            Instant timestamp =
                Instant.ofEpochMilli(OrderedBytes.readOrderedLong(elementSuffix(row), 1));
            for (byte[] element : row.elements) {
              list.add(
                  TimestampedValue.of(StateCoding.decodeStamped(valueCoder, element), timestamp));
            }
          }
          return list;
        }
      default:
        throw new AssertionError(state.kind());
    }
  }

  private static List<Object> decodeElements(Coder<Object> coder, List<byte[]> elements) {
    List<Object> out = new ArrayList<>(elements.size());
    for (byte[] element : elements) {
      out.add(StateCoding.decodeStamped(coder, element));
    }
    return out;
  }

  /** The one row of a single-row kind (value, combining, bag): the cell's own row. */
  private RowAtVersion ownRow() {
    if (rows.size() != 1 || rows.get(0).suffix.length != 0) {
      throw mismatch();
    }
    return rows.get(0);
  }

  /** The suffix of an element row ({@code 0x01} + element, map key or timestamp). */
  private byte[] elementSuffix(RowAtVersion row) {
    byte[] suffix = row.suffix;
    if (suffix.length < 2 || suffix[0] != ELEMENT_MARKER) {
      throw mismatch();
    }
    return suffix;
  }

  private IllegalStateException mismatch() {
    return new IllegalStateException(
        "The history of state '"
            + state.id()
            + "' holds rows that a "
            + state.kind()
            + " state does not write: the state was written as another kind than the exported"
            + " StateSpec says (was the DoFn's StateSpec changed while the backend kept its"
            + " state?)");
  }

  /**
   * One row that exists at the version: its suffix and either its stored value (put rows) or its
   * elements (list rows), each starting with the write's updated_at.
   */
  private record RowAtVersion(byte[] suffix, byte[] stored, List<byte[]> elements) {
    long updatedAt() {
      if (stored != null) {
        return StateCoding.updatedAt(stored);
      }
      long max = Long.MIN_VALUE;
      for (byte[] element : elements) {
        max = Math.max(max, StateCoding.updatedAt(element));
      }
      return max;
    }
  }
}
