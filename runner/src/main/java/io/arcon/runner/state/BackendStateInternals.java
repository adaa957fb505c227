package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainLayout;
import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.runner.state.history.ChainRecorders;
import io.arcon.runner.state.history.ExportedState;
import io.arcon.runner.state.history.OnDemandRecording;
import io.arcon.runner.state.history.StateHistory;
import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.State;
import org.apache.beam.sdk.state.StateContext;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.CombineWithContext.CombineFnWithContext;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CombineFnUtil;
import org.joda.time.Instant;

/**
 * Beam {@link StateInternals} for one transform's parallel instance, stored entirely in one {@link
 * StateBackend} (single-threaded, like the node that owns it). The runtime sets the current key
 * ({@link #setKey}) and the event time that causes the following writes ({@link #setEventTime});
 * state cells obtained through {@link #state} are bound to the key that was current then.
 *
 * <h2>Binary layout</h2>
 *
 * <p>Notation: {@code lp(x)} = 4-byte big-endian length then the bytes of {@code x}; {@code ts(t)}
 * = the epoch millis of {@code t} as 8 bytes big-endian with the sign bit flipped (byte order =
 * time order); {@code coder(x)} = {@code x} encoded with the StateSpec's coder, nested context;
 * {@code stamp} = the 8-byte big-endian epoch millis of the event time that caused the write, the
 * row's {@code updated_at}.
 *
 * <p>Every cell has an <b>address</b> {@code lp(encoded key) lp(namespace.stringKey() UTF-8)
 * lp(state id UTF-8)}. Length prefixes make the parts prefix-free, so {@code lp(key)} and {@code
 * lp(key) lp(namespace)} are exact prefixes for clearing a whole key or key+namespace.
 *
 * <p>Table {@value #STATE_TABLE}:
 *
 * <table>
 *   <caption>rows per state kind</caption>
 *   <tr><th>kind</th><th>row key</th><th>row value</th></tr>
 *   <tr><td>Value</td><td>address</td><td>stamp coder(value)</td></tr>
 *   <tr><td>Combining</td><td>address</td><td>stamp coder(accumulator)</td></tr>
 *   <tr><td>Bag</td><td>address</td><td>appended list of stamp coder(element)</td></tr>
 *   <tr><td>Set</td><td>address 0x01 coder(element)</td><td>stamp</td></tr>
 *   <tr><td>Map</td><td>address 0x01 coder(map key)</td><td>stamp coder(value)</td></tr>
 *   <tr><td>Multimap</td><td>address 0x01 coder(map key)</td>
 *       <td>appended list of stamp coder(value)</td></tr>
 *   <tr><td>OrderedList</td><td>address 0x01 ts(timestamp)</td>
 *       <td>appended list of stamp coder(value)</td></tr>
 * </table>
 *
 * <p>Watermark holds live in table {@value #HOLD_TABLE} (row key: address; value: stamp, then the
 * hold as 8-byte big-endian millis) and are indexed in table {@value #HOLD_INDEX_TABLE} (row key:
 * {@code ts(hold) address}; value: stamp), ordered by (hold timestamp, key, namespace, id) so that
 * {@link #minimumWatermarkHold()} is one first-row lookup.
 *
 * <p>Set elements and map keys compare by their encodings, as the current key does, so their coders
 * must be deterministic.
 *
 * <h2>History</h2>
 *
 * <p>After {@link #enableHistory}, every write to a row of an exported state id is also recorded in
 * that row's version chain in table {@value ChainLayout#HISTORY_TABLE} (layout and semantics:
 * {@link ChainLayout}), which {@link StateHistory} reads as of any version time. Cells of other
 * state ids are bound without a recorder and write exactly as before.
 */
public final class BackendStateInternals<K> implements StateInternals {
  public static final String STATE_TABLE = "beam_state";
  public static final String HOLD_TABLE = "beam_holds";
  public static final String HOLD_INDEX_TABLE = "beam_hold_index";

  /**
   * Bound on cached cells (one per namespace and state id): many windows (namespaces) must not grow
   * the cache without limit. The cache only saves re-binding; dropping it is always safe. Room for
   * the live windows of many keys: 10k keys' sessions (about four cells each) dropped a 4,096-cell
   * cache every thousand elements, and each refill cost a namespace key and a tag bind.
   */
  static final int MAX_CACHED_CELLS = 65536;

  private final StateBackend backend;
  private final Coder<K> keyCoder;
  private final KeyEncoder keyEncoder;
  private final StateTable stateTable;
  private final StateTable holdTable;
  private final StateTable holdIndexTable;
  private final StateCoding coding = new StateCoding();
  private final OrderedBytes addressBuilder = new OrderedBytes(128);
  private final NamespaceKeys namespaceKeys = new NamespaceKeys();
  private final Binder binder = new Binder();

  /**
   * Cached cells by namespace, then by state id. A namespace's window is hashed once when the
   * namespace comes up again, not on every access: runners-core reads several states of one window
   * in a row (buffer, holds, trigger bits), and a window's hash can be dear (a user window that
   * hashes boxed fields, as Nexmark's WinningBids window does).
   */
  private final NamespaceMap<NamespaceCells> cells = new NamespaceMap<>();

  private int cachedCells;

  /**
   * The namespaces of the last cache misses, most recent in turn: their cells are found by id
   * alone. Merging windows alternate between a few windows (each merged window, then the result).
   */
  private final NamespaceCells[] recentNamespaces = new NamespaceCells[4];

  private int nextRecent;

  /** The slot of the last {@link #state} call: the usual next one (same cell, another key). */
  private CachedCell lastCell;

  /** Recorders of the exported state ids; null until {@link #enableHistory}. */
  private ChainRecorders history;

  private StateHistory stateHistory;

  private K key;
  private byte[] encodedKey;
  private long eventTimeMillis = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();

  public BackendStateInternals(StateBackend backend, Coder<K> keyCoder) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.keyCoder = Objects.requireNonNull(keyCoder, "keyCoder");
    this.keyEncoder = KeyEncoder.of(keyCoder);
    this.stateTable = backend.table(STATE_TABLE);
    this.holdTable = backend.table(HOLD_TABLE);
    this.holdIndexTable = backend.table(HOLD_INDEX_TABLE);
  }

  public StateBackend backend() {
    return backend;
  }

  public Coder<K> keyCoder() {
    return keyCoder;
  }

  /**
   * Makes {@code key} current. {@code encodedKey} must be {@code key} encoded with the key coder;
   * keys are identified by these bytes. The array is retained and must not be mutated afterwards.
   */
  public void setKey(K key, byte[] encodedKey) {
    if (encodedKey == null) {
      throw new IllegalArgumentException(
          "setKey needs the coder-encoded key bytes; got null for key " + key);
    }
    this.key = key;
    this.encodedKey = encodedKey;
  }

  /** Makes {@code key} current, encoding it with the key coder. */
  public void setKey(K key) {
    try {
      setKey(key, keyEncoder.encode(key));
    } catch (CoderException e) {
      throw new IllegalArgumentException(
          "Could not encode key " + key + " with the key coder " + keyCoder, e);
    }
  }

  @Override
  public K getKey() {
    return key;
  }

  /** The coder-encoded bytes of the current key, or null when no key was set. */
  public byte[] getEncodedKey() {
    return encodedKey;
  }

  /** The event time that causes the following writes; recorded in each row as updated_at. */
  public void setEventTime(Instant timestamp) {
    this.eventTimeMillis = timestamp.getMillis();
  }

  public Instant getEventTime() {
    return Instant.ofEpochMilli(eventTimeMillis);
  }

  long eventTimeMillis() {
    return eventTimeMillis;
  }

  StateCoding coding() {
    return coding;
  }

  /**
   * Starts recording the version chains of the states in {@code exportedSpecs} (state id to the
   * DoFn's StateSpec, coders known), from the next write on. Call it once, before processing: a
   * cell obtained from {@link #state} earlier and kept by the caller does not record (cells
   * obtained afterwards do; a second call replaces the first). Runner-internal state ids and user
   * states not in the map are not recorded and cost nothing extra: their cells are bound without a
   * recorder.
   *
   * @param exactById for each exported id: true when versions are exact (chain stamp = the event
   *     time set by {@link #setEventTime}: element or timer timestamp), false for a watermark cut
   *     (chain stamp = {@code inputWatermark} at the write)
   * @param inputWatermark the operator's current input watermark in epoch millis, read per write of
   *     a watermark-cut state
   * @return the reader (and pruner) of the recorded history, also {@link #history()}
   */
  public StateHistory enableHistory(
      Map<String, ? extends StateSpec<?>> exportedSpecs,
      Map<String, Boolean> exactById,
      LongSupplier inputWatermark) {
    return enableHistory(exportedSpecs, exactById, inputWatermark, 0);
  }

  /**
   * {@link #enableHistory(Map, Map, LongSupplier)} for an owner that prunes the history every
   * {@code pruneStepMillis} of chain stamps: the chains are kept in segments of that width, so a
   * prune folds only the segments below its horizon and leaves the others as they are.
   */
  public StateHistory enableHistory(
      Map<String, ? extends StateSpec<?>> exportedSpecs,
      Map<String, Boolean> exactById,
      LongSupplier inputWatermark,
      long pruneStepMillis) {
    Objects.requireNonNull(exportedSpecs, "exportedSpecs");
    Objects.requireNonNull(exactById, "exactById");
    StateHistory reader = new StateHistory(backend, exportedSpecs);
    this.history =
        new ChainRecorders(
            backend, reader, exactById, this::eventTimeMillis, inputWatermark, pruneStepMillis);
    reader.readAfterFlushing(history);
    this.stateHistory = reader;
    // Cached cells were bound without recorders.
    dropCells();
    return reader;
  }

  /**
   * Makes the recording started by {@link #enableHistory} (whose states must all be watermark cuts)
   * one that runs only while switched on: it is off from now on, and the chains the backend holds
   * of these states (a restored snapshot's) are dropped. See {@link OnDemandRecording}.
   *
   * @param inputWatermark the {@code inputWatermark} given to {@link #enableHistory}
   */
  public OnDemandRecording recordHistoryOnDemand(LongSupplier inputWatermark) {
    if (history == null) {
      throw new IllegalStateException(
          "No state is exported: call enableHistory(...) before recordHistoryOnDemand(...)");
    }
    return new OnDemandRecording(backend, stateTable, history, stateHistory, inputWatermark);
  }

  /**
   * Puts the buffered writes of the exported states into their chains, so that the history table
   * holds every write so far (a snapshot copies it); nothing happens when no state is exported.
   */
  public void flushHistory() {
    if (history != null) {
      history.flush();
    }
  }

  /** The history of the exported states. */
  public StateHistory history() {
    if (stateHistory == null) {
      throw new IllegalStateException(
          "No state is exported: call enableHistory(...) before reading the state history");
    }
    return stateHistory;
  }

  /**
   * The minimum over all keys and namespaces of the WatermarkHoldState values, or {@link
   * BoundedWindow#TIMESTAMP_MAX_VALUE} when there is no hold.
   */
  public Instant minimumWatermarkHold() {
    try (CloseableIterator<StateEntry> it = holdIndexTable.iterator()) {
      if (!it.hasNext()) {
        return BoundedWindow.TIMESTAMP_MAX_VALUE;
      }
      return Instant.ofEpochMilli(OrderedBytes.readOrderedLong(it.next().key(), 0));
    }
  }

  /** Removes every state cell and hold of the current key in {@code namespace}. */
  public void clearNamespace(StateNamespace namespace) {
    requireKey();
    byte[] prefix =
        addressBuilder
            .reset()
            .writeLengthPrefixed(encodedKey)
            .writeLengthPrefixed(namespaceKeys.of(namespace))
            .toByteArray();
    if (history != null) {
      history.recordClearNamespace(stateTable, prefix);
    }
    clearPrefix(prefix);
  }

  /** Removes every state cell and hold of the current key, in every namespace. */
  public void clearKey() {
    requireKey();
    byte[] prefix = addressBuilder.reset().writeLengthPrefixed(encodedKey).toByteArray();
    if (history != null) {
      history.recordClearKey(stateTable, prefix);
    }
    clearPrefix(prefix);
  }

  private void clearPrefix(byte[] prefix) {
    try (CloseableIterator<StateEntry> it = holdTable.prefixScan(prefix)) {
      while (it.hasNext()) {
        StateEntry hold = it.next();
        holdIndexTable.delete(
            holdIndexKey(BackendWatermarkHoldState.holdOf(hold.value()).getMillis(), hold.key()));
      }
    }
    holdTable.deletePrefix(prefix);
    stateTable.deletePrefix(prefix);
  }

  static byte[] holdIndexKey(long holdMillis, byte[] address) {
    return KeyBytes.concat(OrderedBytes.orderedLong(holdMillis), address);
  }

  /**
   * The cell of {@code address} in {@code namespace} for the current key. A cell stays bound to the
   * key it was obtained for; the cache keeps, per namespace and state id, the last cell and the
   * encoded {@code [namespace][state id]} part of its address, so switching keys costs one small
   * cell and one address array instead of re-encoding the whole address.
   */
  @Override
  @SuppressWarnings("unchecked")
  public <T extends State> T state(
      StateNamespace namespace, StateTag<T> address, StateContext<?> context) {
    requireKey();
    CachedCell cached = lastCell;
    if (cached == null
        || !NamespaceEquality.same(cached.namespace, namespace)
        || !cached.id.equals(address.getId())
        || !cached.sameSpec(address)) {
      cached = cachedCell(namespace, address);
      lastCell = cached;
    }
    if (cached.boundKey == encodedKey || Arrays.equals(cached.boundKey, encodedKey)) {
      return (T) cached.cell;
    }
    byte[] cellAddress = cellAddress(encodedKey, cached.namespaceAndId);
    T cell;
    if (cached.factory != null) {
      cell = (T) cached.factory.create(cellAddress);
    } else {
      binder.address = cellAddress;
      binder.context = context;
      binder.factory = null;
      cell = address.bind(binder);
      cached.factory = binder.factory;
    }
    cached.cell = cell;
    cached.boundKey = encodedKey;
    return cell;
  }

  /** The cache slot of {@code namespace} and the tag's id, made fresh when the spec changed. */
  private CachedCell cachedCell(StateNamespace namespace, StateTag<?> address) {
    NamespaceCells inNamespace = recentNamespace(namespace);
    if (inNamespace == null) {
      int hash = NamespaceEquality.hash(namespace);
      inNamespace = cells.get(namespace, hash);
      if (inNamespace == null) {
        if (cachedCells >= MAX_CACHED_CELLS) {
          dropCells();
        }
        inNamespace = new NamespaceCells(namespace, namespaceKeys.of(namespace));
        cells.put(namespace, hash, inNamespace);
      }
      remember(inNamespace);
    }
    CachedCell cached = inNamespace.get(address.getId());
    if (cached == null || !cached.sameSpec(address)) {
      if (cachedCells >= MAX_CACHED_CELLS) {
        dropCells();
        inNamespace = new NamespaceCells(namespace, inNamespace.key);
        cells.put(namespace, NamespaceEquality.hash(namespace), inNamespace);
        remember(inNamespace);
      }
      cached =
          new CachedCell(
              namespace,
              address,
              addressBuilder
                  .reset()
                  .writeLengthPrefixed(inNamespace.key)
                  .writeLengthPrefixed(address.getId())
                  .toByteArray());
      if (inNamespace.put(cached)) {
        cachedCells++;
      }
    }
    return cached;
  }

  /** {@code lp(encodedKey) namespaceAndId}, built in one array. */
  private static byte[] cellAddress(byte[] encodedKey, byte[] namespaceAndId) {
    int keyLength = encodedKey.length;
    byte[] out = new byte[4 + keyLength + namespaceAndId.length];
    out[0] = (byte) (keyLength >>> 24);
    out[1] = (byte) (keyLength >>> 16);
    out[2] = (byte) (keyLength >>> 8);
    out[3] = (byte) keyLength;
    System.arraycopy(encodedKey, 0, out, 4, keyLength);
    System.arraycopy(namespaceAndId, 0, out, 4 + keyLength, namespaceAndId.length);
    return out;
  }

  private NamespaceCells recentNamespace(StateNamespace namespace) {
    for (NamespaceCells recent : recentNamespaces) {
      if (recent != null && NamespaceEquality.same(recent.namespace, namespace)) {
        return recent;
      }
    }
    return null;
  }

  private void remember(NamespaceCells inNamespace) {
    recentNamespaces[nextRecent] = inNamespace;
    nextRecent = (nextRecent + 1) & (recentNamespaces.length - 1);
  }

  private void dropCells() {
    cells.clear();
    cachedCells = 0;
    Arrays.fill(recentNamespaces, null);
    lastCell = null;
  }

  private void requireKey() {
    if (encodedKey == null) {
      throw new IllegalStateException(
          "No current key: the runtime must call setKey(key, encodedKey) before using keyed state");
    }
  }

  /**
   * The cached cells of one namespace, by state id, in a short array: a namespace has a handful of
   * ids, and with many keys' windows (sessions, Nexmark's auction windows) most namespaces are new,
   * so building a hash table for each cost more than it saved.
   */
  private static final class NamespaceCells {
    private final StateNamespace namespace;

    /** {@code namespace}'s string key, looked up once for all its ids. */
    private final byte[] key;

    private CachedCell[] byId = new CachedCell[4];
    private int size;

    NamespaceCells(StateNamespace namespace, byte[] key) {
      this.namespace = namespace;
      this.key = key;
    }

    CachedCell get(String id) {
      for (int i = 0; i < size; i++) {
        String cachedId = byId[i].id;
        if (cachedId == id || cachedId.equals(id)) {
          return byId[i];
        }
      }
      return null;
    }

    /** Stores {@code cell} under its id; true when the id was new. */
    boolean put(CachedCell cell) {
      for (int i = 0; i < size; i++) {
        if (byId[i].id.equals(cell.id)) {
          byId[i] = cell;
          return false;
        }
      }
      if (size == byId.length) {
        byId = Arrays.copyOf(byId, size * 2);
      }
      byId[size++] = cell;
      return true;
    }
  }

  /** Makes the cell of one slot for another address, without going through the tag. */
  private interface CellFactory {
    State create(byte[] address);
  }

  /** The last cell bound in one slot, and for which key. */
  private static final class CachedCell {
    private final StateNamespace namespace;
    private final String id;
    private final StateTag<?> tag;
    private final byte[] namespaceAndId;
    private byte[] boundKey;
    private State cell;

    /** Set after the first bind for kinds whose cells depend on nothing but the address. */
    private CellFactory factory;

    CachedCell(StateNamespace namespace, StateTag<?> tag, byte[] namespaceAndId) {
      this.namespace = namespace;
      this.id = tag.getId();
      this.tag = tag;
      this.namespaceAndId = namespaceAndId;
    }

    /**
     * Whether {@code other} binds the same kind of cell with the same coders (a tag's own equality
     * compares only ids). Runners build a new tag per access around the DoFn's one spec object, so
     * spec identity is the common hit.
     */
    boolean sameSpec(StateTag<?> other) {
      if (tag == other) {
        return true;
      }
      Object spec = tag.getSpec();
      Object otherSpec = other.getSpec();
      return spec == otherSpec || (spec != null && spec.equals(otherSpec));
    }
  }

  /** Binds tags to cells at the address prepared by {@link #state}; reused, single-threaded. */
  private final class Binder implements StateTag.StateBinder {
    private byte[] address;
    private StateContext<?> context;

    /** How to make the cell just bound for another address, when that needs nothing else. */
    private CellFactory factory;

    /** The recorder of an exported id (checked to be exported as {@code kind}), else null. */
    private ChainRecorder recorder(StateTag<?> tag, ExportedState.Kind kind) {
      if (history == null) {
        return null;
      }
      ChainRecorder recorder = history.forId(tag.getId());
      if (recorder != null) {
        recorder.requireKind(kind);
      }
      return recorder;
    }

    @Override
    public <T> ValueState<T> bindValue(StateTag<ValueState<T>> spec, Coder<T> coder) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.VALUE);
      StateTable.ValueDecoder<T> decoder = StateCoding.stampedDecoder(coder);
      factory =
          a ->
              new BackendValueState<>(
                  BackendStateInternals.this, stateTable, a, recorder, coder, decoder);
      return (ValueState<T>) factory.create(address);
    }

    @Override
    public <T> BagState<T> bindBag(StateTag<BagState<T>> spec, Coder<T> elemCoder) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.BAG);
      factory =
          a ->
              new BackendBagState<>(BackendStateInternals.this, stateTable, a, recorder, elemCoder);
      return (BagState<T>) factory.create(address);
    }

    @Override
    public <T> SetState<T> bindSet(StateTag<SetState<T>> spec, Coder<T> elemCoder) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.SET);
      factory =
          a ->
              new BackendSetState<>(BackendStateInternals.this, stateTable, a, recorder, elemCoder);
      return (SetState<T>) factory.create(address);
    }

    @Override
    public <KeyT, ValueT> MapState<KeyT, ValueT> bindMap(
        StateTag<MapState<KeyT, ValueT>> spec,
        Coder<KeyT> mapKeyCoder,
        Coder<ValueT> mapValueCoder) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.MAP);
      factory =
          a ->
              new BackendMapState<>(
                  BackendStateInternals.this, stateTable, a, recorder, mapKeyCoder, mapValueCoder);
      return (MapState<KeyT, ValueT>) factory.create(address);
    }

    @Override
    public <KeyT, ValueT> MultimapState<KeyT, ValueT> bindMultimap(
        StateTag<MultimapState<KeyT, ValueT>> spec,
        Coder<KeyT> keyCoder,
        Coder<ValueT> valueCoder) {
      return new BackendMultimapState<>(
          BackendStateInternals.this,
          stateTable,
          address,
          recorder(spec, ExportedState.Kind.MULTIMAP),
          keyCoder,
          valueCoder);
    }

    @Override
    public <T> OrderedListState<T> bindOrderedList(
        StateTag<OrderedListState<T>> spec, Coder<T> elemCoder) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.ORDERED_LIST);
      factory =
          a ->
              new BackendOrderedListState<>(
                  BackendStateInternals.this, stateTable, a, recorder, elemCoder);
      return (OrderedListState<T>) factory.create(address);
    }

    @Override
    public <InputT, AccumT, OutputT> CombiningState<InputT, AccumT, OutputT> bindCombiningValue(
        StateTag<CombiningState<InputT, AccumT, OutputT>> spec,
        Coder<AccumT> accumCoder,
        CombineFn<InputT, AccumT, OutputT> combineFn) {
      ChainRecorder recorder = recorder(spec, ExportedState.Kind.COMBINING);
      // A GroupByKey that combines binds its accumulator for every element: through Beam's tag
      // adapters that was a twentieth of a triggered count's time (Nexmark Q12).
      factory =
          a ->
              new BackendCombiningState<>(
                  BackendStateInternals.this, stateTable, a, recorder, accumCoder, combineFn);
      return (CombiningState<InputT, AccumT, OutputT>) factory.create(address);
    }

    @Override
    public <InputT, AccumT, OutputT>
        CombiningState<InputT, AccumT, OutputT> bindCombiningValueWithContext(
            StateTag<CombiningState<InputT, AccumT, OutputT>> spec,
            Coder<AccumT> accumCoder,
            CombineFnWithContext<InputT, AccumT, OutputT> combineFn) {
      CombiningState<InputT, AccumT, OutputT> cell =
          bindCombiningValue(spec, accumCoder, CombineFnUtil.bindContext(combineFn, context));
      // Bound to this call's context (its window's side inputs): bind again for the next key.
      factory = null;
      return cell;
    }

    @Override
    public WatermarkHoldState bindWatermark(
        StateTag<WatermarkHoldState> spec, TimestampCombiner timestampCombiner) {
      recorder(spec, null);
      return new BackendWatermarkHoldState(
          BackendStateInternals.this, holdTable, holdIndexTable, address, timestampCombiner);
    }
  }
}
