package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.history.HistoryOracle.BagCell;
import io.arcon.runner.state.history.HistoryOracle.CellId;
import io.arcon.runner.state.history.HistoryOracle.Expected;
import io.arcon.runner.state.history.HistoryOracle.MapCell;
import io.arcon.runner.state.history.HistoryOracle.MultimapCell;
import io.arcon.runner.state.history.HistoryOracle.OrderedListCell;
import io.arcon.runner.state.history.HistoryOracle.SetCell;
import io.arcon.runner.state.history.HistoryOracle.Stamped;
import io.arcon.runner.state.history.HistoryOracle.SumCell;
import io.arcon.runner.state.history.HistoryOracle.ValueCell;
import io.arcon.runner.state.history.StateHistory.CellVersion;
import io.arcon.runner.state.history.StateHistory.Chunk;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random operation sequences on every exportable kind (several keys; the global namespace and two
 * interval windows), applied both to {@link BackendStateInternals} with history and to {@link
 * HistoryOracle}; the version at many T is compared, read whole, in chunks of 1..3 cells with
 * writes in between, per key (ON KEY), and after pruning.
 */
class StateHistoryOracleTest {
  private static final String VALUE = "value";
  private static final String BAG = "bag";
  private static final String SET = "set";
  private static final String MAP = "map";
  private static final String MULTIMAP = "multimap";
  private static final String ORDERED = "ordered";
  private static final String SUM = "sum";
  private static final List<String> IDS = List.of(VALUE, BAG, SET, MAP, MULTIMAP, ORDERED, SUM);

  /**
   * KV encodings do not sort by length ({@code ("b","")} is shorter than {@code ("a","bb")} but
   * larger), so set order checks that rows come out in encoding order.
   */
  private static final Coder<KV<String, String>> SET_CODER =
      KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of());

  private static final StateSpec<ValueState<String>> VALUE_SPEC =
      StateSpecs.value(StringUtf8Coder.of());
  private static final StateSpec<BagState<Integer>> BAG_SPEC = StateSpecs.bag(VarIntCoder.of());
  private static final StateSpec<SetState<KV<String, String>>> SET_SPEC = StateSpecs.set(SET_CODER);
  private static final StateSpec<MapState<String, Integer>> MAP_SPEC =
      StateSpecs.map(StringUtf8Coder.of(), VarIntCoder.of());
  private static final StateSpec<MultimapState<Integer, String>> MULTIMAP_SPEC =
      StateSpecs.multimap(VarIntCoder.of(), StringUtf8Coder.of());
  private static final StateSpec<OrderedListState<Integer>> ORDERED_SPEC =
      StateSpecs.orderedList(VarIntCoder.of());
  private static final StateSpec<CombiningState<Long, Long, Long>> SUM_SPEC =
      StateSpecs.combining(VarLongCoder.of(), new SumLongs());

  private static final StateTag<ValueState<String>> VALUE_TAG =
      StateTags.tagForSpec(VALUE, VALUE_SPEC);
  private static final StateTag<BagState<Integer>> BAG_TAG = StateTags.tagForSpec(BAG, BAG_SPEC);
  private static final StateTag<SetState<KV<String, String>>> SET_TAG =
      StateTags.tagForSpec(SET, SET_SPEC);
  private static final StateTag<MapState<String, Integer>> MAP_TAG =
      StateTags.tagForSpec(MAP, MAP_SPEC);
  private static final StateTag<MultimapState<Integer, String>> MULTIMAP_TAG =
      StateTags.tagForSpec(MULTIMAP, MULTIMAP_SPEC);
  private static final StateTag<OrderedListState<Integer>> ORDERED_TAG =
      StateTags.tagForSpec(ORDERED, ORDERED_SPEC);
  private static final StateTag<CombiningState<Long, Long, Long>> SUM_TAG =
      StateTags.tagForSpec(SUM, SUM_SPEC);

  /** A user state that is not exported, and runner-internal ones: never in the history. */
  private static final StateTag<ValueState<String>> PRIVATE_TAG =
      StateTags.tagForSpec("private", StateSpecs.value(StringUtf8Coder.of()));

  private static final StateTag<BagState<String>> INTERNAL_TAG =
      StateTags.bag("__sortBuffer", StringUtf8Coder.of());
  private static final StateTag<WatermarkHoldState> HOLD_TAG =
      StateTags.watermarkStateInternal("__hold", TimestampCombiner.EARLIEST);

  private static final List<String> KEYS = List.of("a", "b", "cc", "ddd", "e");
  private static final List<StateNamespace> NAMESPACES =
      List.of(
          StateNamespaces.global(),
          StateNamespaces.window(
              IntervalWindow.getCoder(), new IntervalWindow(new Instant(0), new Instant(1_000))),
          StateNamespaces.window(
              IntervalWindow.getCoder(), new IntervalWindow(new Instant(500), new Instant(2_500))));
  private static final List<String> STRINGS = List.of("", "x", "yy", "zzz", "hello");
  private static final List<KV<String, String>> SET_ELEMENTS =
      List.of(KV.of("a", "bb"), KV.of("b", ""), KV.of("", ""), KV.of("a", ""), KV.of("", "zzzz"));
  private static final List<String> MAP_KEYS = List.of("", "k", "kk", "q", "a-longer-key");
  private static final List<Integer> MULTIMAP_KEYS = List.of(0, 1, 5, 300, -2);

  /** Each phase's chain stamps lie in {@code [phase * PHASE, (phase + 1) * PHASE)}. */
  private static final long PHASE = 1_000;

  private static final int OPS_PER_PHASE = 1_200;

  @TempDir Path tmp;
  private StateBackend backend;
  private BackendStateInternals<String> internals;
  private StateHistory history;
  private final HistoryOracle oracle = new HistoryOracle();
  private final Map<String, Boolean> exact = new HashMap<>();
  private final Map<String, Long> keyEventTime = new HashMap<>();
  private long watermark = Long.MIN_VALUE;
  private Random random;

  static Stream<Arguments> cases() {
    return Stream.of("heap", "rocksdb", "lmdb")
        .flatMap(engine -> Stream.of(Arguments.of(engine, false), Arguments.of(engine, true)));
  }

  @AfterEach
  void close() {
    if (backend != null) {
      backend.close();
    }
  }

  @ParameterizedTest(name = "{0}, consistency flipped (and segments 250 ms wide): {1}")
  @MethodSource("cases")
  void versionsMatchTheOracleWholeInChunksPerKeyAndAfterPruning(String engine, boolean flipped) {
    random = new Random(engine.hashCode() * 31L + (flipped ? 1 : 0));
    open(engine, flipped);

    for (int phase = 0; phase < 3; phase++) {
      long base = phase * PHASE;
      runOps(base, OPS_PER_PHASE);
      for (long t : versions(30)) {
        checkVersion(t);
      }
      checkVersion(Long.MAX_VALUE);
      // Versions up to the next phase's start stay fixed while that phase writes between chunks.
      for (long t : versions(3)) {
        checkChunked(t, base + PHASE, null);
        checkChunked(t, base + PHASE, KEYS.get(random.nextInt(KEYS.size())));
      }
    }

    long firstHorizon = 500 + random.nextInt((int) PHASE);
    pruneAndCheck(firstHorizon);

    runOps(3 * PHASE, OPS_PER_PHASE);
    for (long t : versions(30)) {
      if (t >= firstHorizon) {
        checkVersion(t);
      }
    }

    long secondHorizon = 2 * PHASE + random.nextInt((int) (1.5 * PHASE));
    pruneAndCheck(secondHorizon);

    // Pruning again at the same or an older horizon changes nothing.
    List<String> table = historyRows();
    history.prune(secondHorizon);
    assertEquals(table, historyRows());
    history.prune(firstHorizon);
    assertEquals(table, historyRows());
    assertEquals(secondHorizon, history.oldestAvailableMillis());

    // The pruned history keeps recording and reading, also in chunks.
    runOps(5 * PHASE, OPS_PER_PHASE / 2);
    for (long t : versions(20)) {
      if (t >= secondHorizon) {
        checkVersion(t);
        checkChunked(Math.min(t, 6 * PHASE), 6 * PHASE, null);
      }
    }
    checkVersion(Long.MAX_VALUE);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void watermarkCutChainsRecordedOnlyWhileSwitchedOnReadLikeTheOracleFromTheirStart(String engine) {
    random = new Random(engine.hashCode() * 17L);
    open(engine, null);
    OnDemandRecording recording = internals.recordHistoryOnDemand(() -> watermark);
    assertFalse(recording.isOn());

    runOps(0, OPS_PER_PHASE);
    assertEquals(0, historyEntries(), "nothing is recorded while off");
    IllegalStateException off =
        assertThrows(
            IllegalStateException.class, () -> history.cellsAt(VALUE, PHASE, null, null, 10));
    assertTrue(off.getMessage().contains("recorded only while a TSS reads it"), off.getMessage());

    long from = recording.start();
    assertTrue(recording.isOn());
    // Every write so far is in the base: versions after the last stamp written while off.
    assertTrue(from > 0 && from <= watermark + 1, "from " + from + ", watermark " + watermark);
    assertEquals(from, recording.start(), "starting again changes nothing");
    IllegalArgumentException before =
        assertThrows(
            IllegalArgumentException.class, () -> history.cellsAt(BAG, from - 1, null, null, 10));
    assertTrue(before.getMessage().contains("recorded from when a TSS first read it"));
    checkVersionsFrom(from);

    runOps(PHASE, OPS_PER_PHASE);
    runOps(2 * PHASE, OPS_PER_PHASE);
    checkVersionsFrom(from);
    for (long t : versions(3)) {
      if (t >= from) {
        checkChunked(t, 3 * PHASE, null);
      }
    }
    pruneAndCheck(PHASE + random.nextInt((int) PHASE));

    recording.stop();
    assertFalse(recording.isOn());
    assertEquals(0, historyEntries(), "stopping drops the chains");
    assertThrows(
        IllegalStateException.class, () -> history.cellsAt(VALUE, Long.MAX_VALUE, null, null, 10));
    history.prune(4 * PHASE); // nothing to prune while off
    assertEquals(0, historyEntries());

    runOps(4 * PHASE, OPS_PER_PHASE);
    long again = recording.start();
    assertTrue(again >= 4 * PHASE && again <= watermark + 1, "again from " + again);
    runOps(5 * PHASE, OPS_PER_PHASE);
    checkVersionsFrom(again);
  }

  private void checkVersionsFrom(long from) {
    checkVersion(from);
    for (long t : versions(30)) {
      if (t >= from) {
        checkVersion(t);
      }
    }
    checkVersion(Long.MAX_VALUE);
  }

  /**
   * @param flipped null: every state is a watermark cut; else which half of the kinds is exact
   */
  private void open(String engine, Boolean flipped) {
    backend = StateBackends.open(StateBackendConfig.of(engine, tmp.resolve("db")));
    internals = new BackendStateInternals<>(backend, StringUtf8Coder.of());
    Map<String, StateSpec<?>> specs = new LinkedHashMap<>();
    specs.put(VALUE, VALUE_SPEC);
    specs.put(BAG, BAG_SPEC);
    specs.put(SET, SET_SPEC);
    specs.put(MAP, MAP_SPEC);
    specs.put(MULTIMAP, MULTIMAP_SPEC);
    specs.put(ORDERED, ORDERED_SPEC);
    specs.put(SUM, SUM_SPEC);
    // Both chain stamps on every kind over the two runs.
    List<String> exactIds = List.of(VALUE, SET, MULTIMAP, ORDERED);
    for (String id : IDS) {
      exact.put(id, flipped != null && exactIds.contains(id) != flipped);
    }
    // Segments: one live segment per row, or (like a pipeline's) segments a fraction of a phase
    // wide,
    // so that prunes both rewrite segments and drop whole ones.
    long pruneStep = flipped == null ? 300 : flipped ? 250 : 0;
    history = internals.enableHistory(specs, exact, () -> watermark, pruneStep);
    oracle.declare(VALUE, ValueCell::new);
    oracle.declare(BAG, BagCell::new);
    oracle.declare(SET, () -> new SetCell<>(SET_CODER));
    oracle.declare(MAP, () -> new MapCell<>(StringUtf8Coder.of()));
    oracle.declare(MULTIMAP, () -> new MultimapCell<>(VarIntCoder.of()));
    oracle.declare(ORDERED, OrderedListCell::new);
    oracle.declare(SUM, SumCell::new);
  }

  // ---- operations -------------------------------------------------------------------------------

  private void runOps(long base, int count) {
    for (int i = 0; i < count; i++) {
      randomOp(base);
    }
  }

  /**
   * One random operation with chain stamps in {@code [base, base + PHASE)}: per key the event time
   * never decreases, nor does the watermark, as the operator guarantees for exported states.
   */
  private void randomOp(long base) {
    long limit = base + PHASE - 1;
    String key = pick(KEYS);
    long eventTime =
        Math.min(
            Math.max(keyEventTime.getOrDefault(key, base), base)
                + (random.nextInt(3) == 0 ? random.nextInt(10) : 0),
            limit);
    keyEventTime.put(key, eventTime);
    watermark =
        Math.min(
            Math.max(watermark, base) + (random.nextInt(4) == 0 ? random.nextInt(4) : 0), limit);
    internals.setKey(key);
    internals.setEventTime(new Instant(eventTime));
    StateNamespace namespace = pick(NAMESPACES);

    int choice = random.nextInt(100);
    if (choice < 2) {
      internals.clearKey();
      for (String id : IDS) {
        for (StateNamespace ns : NAMESPACES) {
          oracle.record(
              id, key, ns.stringKey(), chainStamp(id, eventTime), HistoryOracle.Cell::clear);
        }
      }
    } else if (choice < 6) {
      internals.clearNamespace(namespace);
      for (String id : IDS) {
        oracle.record(
            id, key, namespace.stringKey(), chainStamp(id, eventTime), HistoryOracle.Cell::clear);
      }
    } else if (choice < 12) {
      notExportedWrite(namespace, eventTime);
    } else {
      String id = pick(IDS);
      exportedOp(id, new Target(id, key, namespace, eventTime, chainStamp(id, eventTime)));
    }
  }

  private long chainStamp(String id, long eventTime) {
    return exact.get(id) ? eventTime : watermark;
  }

  /** Where one operation goes, for the real state and the oracle alike. */
  private record Target(
      String id, String key, StateNamespace namespace, long eventTime, long chainStamp) {}

  private <C extends HistoryOracle.Cell> void expect(Target target, Consumer<C> action) {
    oracle.record(target.id, target.key, target.namespace.stringKey(), target.chainStamp, action);
  }

  private void exportedOp(String id, Target target) {
    long t = target.eventTime;
    int c = random.nextInt(20);
    switch (id) {
      case VALUE -> {
        ValueState<String> state = internals.state(target.namespace, VALUE_TAG);
        if (c < 12) {
          String v = pick(STRINGS);
          state.write(v);
          this.<ValueCell<String>>expect(target, m -> m.write(v, t));
        } else if (c < 15) {
          state.write(null);
          this.<ValueCell<String>>expect(target, m -> m.write(null, t));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case BAG -> {
        BagState<Integer> state = internals.state(target.namespace, BAG_TAG);
        if (c < 16) {
          int v = random.nextInt(100);
          state.add(v);
          this.<BagCell<Integer>>expect(target, m -> m.elements.add(new Stamped<>(v, t)));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case SET -> {
        SetState<KV<String, String>> state = internals.state(target.namespace, SET_TAG);
        KV<String, String> v = pick(SET_ELEMENTS);
        if (c < 8) {
          state.add(v);
          this.<SetCell<KV<String, String>>>expect(
              target, m -> m.elements.put(v, new Stamped<>(v, t)));
        } else if (c < 12) {
          state.addIfAbsent(v);
          this.<SetCell<KV<String, String>>>expect(
              target, m -> m.elements.putIfAbsent(v, new Stamped<>(v, t)));
        } else if (c < 17) {
          state.remove(v);
          this.<SetCell<KV<String, String>>>expect(target, m -> m.elements.remove(v));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case MAP -> {
        MapState<String, Integer> state = internals.state(target.namespace, MAP_TAG);
        String k = pick(MAP_KEYS);
        int v = random.nextInt(100);
        if (c < 8) {
          state.put(k, v);
          this.<MapCell<String, Integer>>expect(target, m -> m.entries.put(k, new Stamped<>(v, t)));
        } else if (c < 11) {
          state.computeIfAbsent(k, ignored -> v);
          this.<MapCell<String, Integer>>expect(
              target, m -> m.entries.putIfAbsent(k, new Stamped<>(v, t)));
        } else if (c < 13) {
          state.putIfAbsent(k, v);
          this.<MapCell<String, Integer>>expect(
              target, m -> m.entries.putIfAbsent(k, new Stamped<>(v, t)));
        } else if (c < 17) {
          state.remove(k);
          this.<MapCell<String, Integer>>expect(target, m -> m.entries.remove(k));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case MULTIMAP -> {
        MultimapState<Integer, String> state = internals.state(target.namespace, MULTIMAP_TAG);
        int k = pick(MULTIMAP_KEYS);
        if (c < 13) {
          String v = pick(STRINGS);
          state.put(k, v);
          this.<MultimapCell<Integer, String>>expect(
              target,
              m -> m.entries.computeIfAbsent(k, x -> new ArrayList<>()).add(new Stamped<>(v, t)));
        } else if (c < 17) {
          state.remove(k);
          this.<MultimapCell<Integer, String>>expect(target, m -> m.entries.remove(k));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case ORDERED -> {
        OrderedListState<Integer> state = internals.state(target.namespace, ORDERED_TAG);
        if (c < 15) {
          TimestampedValue<Integer> v =
              TimestampedValue.of(random.nextInt(100), new Instant(random.nextInt(40) - 5));
          state.add(v);
          this.<OrderedListCell<Integer>>expect(target, m -> m.elements.add(new Stamped<>(v, t)));
        } else if (c < 18) {
          long from = random.nextInt(40) - 5;
          long to = from + random.nextInt(15);
          state.clearRange(new Instant(from), new Instant(to));
          this.<OrderedListCell<Integer>>expect(target, m -> m.clearRange(from, to));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      case SUM -> {
        CombiningState<Long, Long, Long> state = internals.state(target.namespace, SUM_TAG);
        long v = 1 + random.nextInt(5);
        if (c < 10) {
          state.add(v);
          this.<SumCell>expect(target, m -> m.add(v, t));
        } else if (c < 16) {
          state.addAccum(v);
          this.<SumCell>expect(target, m -> m.add(v, t));
        } else {
          state.clear();
          expect(target, HistoryOracle.Cell::clear);
        }
      }
      default -> throw new AssertionError(id);
    }
  }

  private void notExportedWrite(StateNamespace namespace, long eventTime) {
    switch (random.nextInt(4)) {
      case 0 -> internals.state(namespace, PRIVATE_TAG).write(pick(STRINGS));
      case 1 -> internals.state(namespace, PRIVATE_TAG).clear();
      case 2 -> internals.state(namespace, INTERNAL_TAG).add(pick(STRINGS));
      default -> internals.state(namespace, HOLD_TAG).add(new Instant(eventTime));
    }
  }

  // ---- checks -----------------------------------------------------------------------------------

  /** Version times around the chain stamps used so far: a stamp itself and just after it. */
  private List<Long> versions(int count) {
    List<Long> stamps = oracle.stamps();
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(stamps.get(random.nextInt(stamps.size())) + random.nextInt(2));
    }
    return out;
  }

  private void checkVersion(long t) {
    for (String id : IDS) {
      Chunk whole = history.cellsAt(id, t, null, null, Integer.MAX_VALUE);
      assertNull(whole.nextCursor());
      assertEquals(oracle.at(id, t, null), actual(whole.cells()), () -> id + " at " + t);
    }
    String key = pick(KEYS);
    String id = pick(IDS);
    assertEquals(
        oracle.at(id, t, key),
        actual(history.cellsAt(id, t, encodeKey(key), null, Integer.MAX_VALUE).cells()),
        () -> id + " of key " + key + " at " + t);
  }

  /**
   * Reads every state at {@code t} in chunks of 1 to 3 cells, with operations at chain stamps from
   * {@code writeBase} (&ge; t) between chunks, and compares with one whole read and the oracle.
   */
  private void checkChunked(long t, long writeBase, String onlyKey) {
    assertTrue(t <= writeBase);
    byte[] keyBytes = onlyKey == null ? null : encodeKey(onlyKey);
    for (String id : IDS) {
      List<CellVersion> whole = history.cellsAt(id, t, keyBytes, null, Integer.MAX_VALUE).cells();
      List<CellVersion> chunked = new ArrayList<>();
      byte[] cursor = null;
      do {
        int max = 1 + random.nextInt(3);
        Chunk chunk = history.cellsAt(id, t, keyBytes, cursor, max);
        assertTrue(chunk.cells().size() <= max);
        if (chunk.nextCursor() != null) {
          assertEquals(max, chunk.cells().size(), "only the last chunk may be short");
        }
        chunked.addAll(chunk.cells());
        cursor = chunk.nextCursor();
        for (int i = random.nextInt(4); i > 0; i--) {
          randomOp(writeBase);
        }
      } while (cursor != null);
      assertEquals(whole, chunked, () -> id + " at " + t + " in chunks");
      assertEquals(
          oracle.at(id, t, onlyKey), actual(chunked), () -> id + " at " + t + " key " + onlyKey);
      if (onlyKey != null) {
        for (CellVersion cell : chunked) {
          assertEquals(onlyKey, decodeKey(cell.encodedKey()));
        }
      }
    }
  }

  private void pruneAndCheck(long horizon) {
    int before = historyEntries();
    Map<String, Map<Long, List<CellVersion>>> readBefore = new HashMap<>();
    List<Long> laterVersions = new ArrayList<>(versions(25));
    laterVersions.add(horizon);
    laterVersions.add(Long.MAX_VALUE);
    laterVersions.removeIf(t -> t < horizon);
    for (String id : IDS) {
      for (long t : laterVersions) {
        readBefore
            .computeIfAbsent(id, x -> new HashMap<>())
            .put(t, history.cellsAt(id, t, null, null, Integer.MAX_VALUE).cells());
      }
    }

    history.prune(horizon);

    assertEquals(horizon, history.oldestAvailableMillis());
    assertTrue(historyEntries() <= before, "pruning must not grow the history");
    try (CloseableIterator<StateEntry> it = historyTable().iterator()) {
      while (it.hasNext()) {
        StateEntry segment = it.next();
        boolean baseSegment = ChainLayout.segment(segment.key()) == ChainLayout.BASE_STAMP;
        for (byte[] entry : segment.elements()) {
          long stamp = ChainLayout.entryStamp(entry);
          assertTrue(
              baseSegment ? stamp == ChainLayout.BASE_STAMP : stamp >= horizon,
              "entry at " + stamp + " left below horizon " + horizon);
        }
      }
    }
    for (long stamp : HistoryOracle.runStamps(backend)) {
      assertTrue(stamp >= horizon, "run entry at " + stamp + " left below horizon " + horizon);
    }
    for (String id : IDS) {
      for (long t : laterVersions) {
        assertEquals(
            readBefore.get(id).get(t),
            history.cellsAt(id, t, null, null, Integer.MAX_VALUE).cells(),
            () -> id + " at " + t + " after pruning at " + horizon);
      }
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> history.cellsAt(id, horizon - 1, null, null, 10));
      assertTrue(refused.getMessage().contains("pruned"), refused.getMessage());
    }
    for (long t : laterVersions) {
      checkVersion(t);
    }
  }

  private Map<CellId, Expected> actual(List<CellVersion> cells) {
    Map<CellId, Expected> out = new HashMap<>();
    for (CellVersion cell : cells) {
      CellId id = new CellId(decodeKey(cell.encodedKey()), cell.namespace());
      assertNotNull(cell.value());
      Expected previous =
          out.put(id, new Expected(HistoryOracle.normalize(cell.value()), cell.updatedAtMillis()));
      assertNull(previous, () -> "cell " + id + " returned twice");
    }
    return out;
  }

  /** The history table, with every buffered write in it. */
  private StateTable historyTable() {
    internals.flushHistory();
    return backend.table(ChainLayout.HISTORY_TABLE);
  }

  /** Chain entries in the history table (each key holds a list of them). */
  private int historyEntries() {
    int n = 0;
    try (CloseableIterator<StateEntry> it = historyTable().iterator()) {
      while (it.hasNext()) {
        n += it.next().elements().size();
      }
    }
    return n + HistoryOracle.runStamps(backend).size();
  }

  /** The history table's entries, rendered to compare tables. */
  private List<String> historyRows() {
    List<String> rows = new ArrayList<>();
    for (StateTable table : List.of(historyTable(), backend.table(ChainLayout.RUNS_TABLE))) {
      try (CloseableIterator<StateEntry> it = table.iterator()) {
        while (it.hasNext()) {
          StateEntry e = it.next();
          rows.add(Arrays.toString(e.key()) + "=" + Arrays.toString(e.value()));
        }
      }
    }
    assertFalse(rows.isEmpty());
    return rows;
  }

  private <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private static byte[] encodeKey(String key) {
    try {
      return CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key);
    } catch (CoderException e) {
      throw new AssertionError(e);
    }
  }

  private static String decodeKey(byte[] encoded) {
    try {
      return CoderUtils.decodeFromByteArray(StringUtf8Coder.of(), encoded);
    } catch (CoderException e) {
      throw new AssertionError(e);
    }
  }

  /** A combine fn whose accumulator is an immutable Long, so versions compare by value. */
  static final class SumLongs extends CombineFn<Long, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long addInput(Long accumulator, Long input) {
      return accumulator + input;
    }

    @Override
    public Long mergeAccumulators(Iterable<Long> accumulators) {
      long sum = 0;
      for (long a : accumulators) {
        sum += a;
      }
      return sum;
    }

    @Override
    public Long extractOutput(Long accumulator) {
      return accumulator;
    }
  }
}
