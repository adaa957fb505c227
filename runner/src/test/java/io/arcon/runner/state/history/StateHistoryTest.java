package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.history.StateHistory.CellVersion;
import io.arcon.state.CloseableIterator;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StateHistoryTest {
  private static final StateNamespace GLOBAL = StateNamespaces.global();
  private static final IntervalWindow WINDOW = new IntervalWindow(new Instant(0), new Instant(60));
  private static final StateNamespace WINDOW_NS =
      StateNamespaces.window(IntervalWindow.getCoder(), WINDOW);

  private static final StateSpec<ValueState<String>> VALUE_SPEC =
      StateSpecs.value(StringUtf8Coder.of());
  private static final StateSpec<BagState<Integer>> BAG_SPEC = StateSpecs.bag(VarIntCoder.of());
  private static final StateSpec<MapState<String, Integer>> MAP_SPEC =
      StateSpecs.map(StringUtf8Coder.of(), VarIntCoder.of());
  private static final StateTag<ValueState<String>> VALUE = StateTags.tagForSpec("v", VALUE_SPEC);
  private static final StateTag<BagState<Integer>> BAG = StateTags.tagForSpec("bag", BAG_SPEC);
  private static final StateTag<MapState<String, Integer>> MAP =
      StateTags.tagForSpec("map", MAP_SPEC);

  @TempDir Path tmp;
  private StateBackend backend;
  private BackendStateInternals<String> internals;
  private long watermark;

  private void open(String engine) {
    backend = StateBackends.open(StateBackendConfig.of(engine, tmp.resolve("db")));
    internals = new BackendStateInternals<>(backend, StringUtf8Coder.of());
  }

  @AfterEach
  void close() {
    if (backend != null) {
      backend.close();
    }
  }

  private StateHistory enable(Map<String, StateSpec<?>> specs, Map<String, Boolean> exact) {
    return internals.enableHistory(specs, exact, () -> watermark);
  }

  private void at(String key, long eventTime) {
    internals.setKey(key);
    internals.setEventTime(new Instant(eventTime));
  }

  /** Chain entries in the history table (each key holds a list of them). */
  private int historyEntries() {
    internals.flushHistory();
    int n = 0;
    try (CloseableIterator<StateEntry> it = backend.table(ChainLayout.HISTORY_TABLE).iterator()) {
      while (it.hasNext()) {
        n += it.next().elements().size();
      }
    }
    return n + HistoryOracle.runStamps(backend).size();
  }

  /** The one cell of {@code id} at {@code t} (null when none): value and updated_at. */
  private static CellVersion only(StateHistory history, String id, long t) {
    List<CellVersion> cells = history.cellsAt(id, t, null, null, 100).cells();
    assertTrue(cells.size() <= 1, cells::toString);
    return cells.isEmpty() ? null : cells.get(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void statesThatAreNotExportedWriteNothingToTheHistory(String engine) {
    open(engine);
    at("k", 5);
    // Bound before history is enabled: enabling rebinds, so later writes are recorded.
    ValueState<String> boundEarly = internals.state(GLOBAL, VALUE);
    assertSame(boundEarly, internals.state(GLOBAL, VALUE));
    enable(Map.of("v", VALUE_SPEC), Map.of("v", true));

    internals.state(GLOBAL, StateTags.tagForSpec("private", VALUE_SPEC)).write("x");
    internals.state(WINDOW_NS, StateTags.bag("__sortBuffer", StringUtf8Coder.of())).add("e");
    internals.state(WINDOW_NS, MAP).put("m", 1);
    internals.state(WINDOW_NS, MAP).clear();
    SetState<String> set = internals.state(GLOBAL, StateTags.set("__seen", StringUtf8Coder.of()));
    set.add("s");
    set.remove("s");
    WatermarkHoldState hold =
        internals.state(
            WINDOW_NS, StateTags.watermarkStateInternal("__hold", TimestampCombiner.EARLIEST));
    hold.add(new Instant(3));
    internals.clearNamespace(WINDOW_NS);
    internals.state(GLOBAL, BAG).add(1);
    internals.clearKey();
    assertEquals(0, historyEntries());

    internals.state(GLOBAL, VALUE).write("recorded");
    assertEquals(1, historyEntries());
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void writesAtOneStampKeepTheirOrderAndEarlierStampsComeFirst(String engine) {
    open(engine);
    StateHistory history =
        enable(
            Map.of("v", VALUE_SPEC, "bag", BAG_SPEC, "map", MAP_SPEC),
            Map.of("v", true, "bag", true, "map", true));
    // The chain orders by (stamp, write order), whatever order the stamps arrive in.
    at("k", 10);
    internals.state(GLOBAL, VALUE).write("ten");
    internals.state(GLOBAL, BAG).add(1);
    internals.state(GLOBAL, MAP).put("a", 10);
    at("k", 5);
    internals.state(GLOBAL, VALUE).write("five");
    internals.state(GLOBAL, VALUE).write("five again");
    internals.state(GLOBAL, BAG).add(2);
    internals.state(GLOBAL, BAG).clear();
    internals.state(GLOBAL, BAG).add(3);
    internals.state(GLOBAL, BAG).add(4);
    internals.state(GLOBAL, MAP).put("a", 5);
    internals.state(GLOBAL, MAP).remove("a");
    internals.state(GLOBAL, MAP).put("b", 5);
    at("k", 20);
    internals.state(GLOBAL, VALUE).clear();
    internals.state(GLOBAL, BAG).add(5);

    assertNull(only(history, "v", 5));
    assertEquals(new CellVersion(key("k"), "/", "five again", 5), only(history, "v", 6));
    assertEquals(new CellVersion(key("k"), "/", "ten", 10), only(history, "v", 11));
    assertNull(only(history, "v", 21));

    assertEquals(new CellVersion(key("k"), "/", List.of(3, 4), 5), only(history, "bag", 6));
    assertEquals(new CellVersion(key("k"), "/", List.of(3, 4, 1), 10), only(history, "bag", 11));
    assertEquals(new CellVersion(key("k"), "/", List.of(3, 4, 1, 5), 20), only(history, "bag", 21));

    assertEquals(new CellVersion(key("k"), "/", Map.of("b", 5), 5), only(history, "map", 6));
    assertEquals(
        new CellVersion(key("k"), "/", Map.of("a", 10, "b", 5), 10), only(history, "map", 11));

    // Folding below 11 keeps every version from 11 on.
    history.prune(11);
    assertEquals(new CellVersion(key("k"), "/", List.of(3, 4, 1), 10), only(history, "bag", 11));
    assertEquals(new CellVersion(key("k"), "/", List.of(3, 4, 1, 5), 20), only(history, "bag", 21));
    assertEquals(new CellVersion(key("k"), "/", "ten", 10), only(history, "v", 11));
    assertNull(only(history, "v", 21));
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void watermarkCutVersionsFollowTheWatermarkAndKeepTheEventTime(String engine) {
    open(engine);
    StateHistory history = enable(Map.of("v", VALUE_SPEC), Map.of("v", false));
    watermark = 50;
    at("k", 100);
    internals.state(WINDOW_NS, VALUE).write("early element, late watermark");
    watermark = 70;
    at("k", 65);
    internals.state(WINDOW_NS, VALUE).write("second");

    assertNull(only(history, "v", 50));
    CellVersion first = only(history, "v", 51);
    assertEquals("early element, late watermark", first.value());
    assertEquals(100, first.updatedAtMillis());
    assertEquals(WINDOW, StateHistory.windowOf(first.namespace(), IntervalWindow.getCoder()));
    assertEquals("second", only(history, "v", 71).value());
    assertEquals(65, only(history, "v", 71).updatedAtMillis());
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void writesOutOfStampOrderReplayByStampAndSurviveAPrune(String engine) {
    open(engine);
    StateHistory history = enable(Map.of("v", VALUE_SPEC), Map.of("v", true));
    // A timer at 1_500 fires after an element at 2_500 was processed; lmdb puts them in two
    // segments (1 s wide), heap and rocksdb in one list, out of stamp order.
    at("k", 2_500);
    internals.state(GLOBAL, VALUE).write("element at 2500");
    at("k", 1_500);
    internals.state(GLOBAL, VALUE).write("timer at 1500");
    at("k", 1_500);
    internals.state(GLOBAL, VALUE).write("second write at 1500");
    at("k", 3_000);
    internals.state(GLOBAL, VALUE).write("element at 3000");

    assertNull(only(history, "v", 1_500));
    assertEquals("second write at 1500", only(history, "v", 1_501).value());
    assertEquals("second write at 1500", only(history, "v", 2_500).value());
    assertEquals("element at 2500", only(history, "v", 2_501).value());
    assertEquals(2_500, only(history, "v", 2_501).updatedAtMillis());
    assertEquals("element at 3000", only(history, "v", 3_001).value());

    history.prune(2_000);
    assertEquals("second write at 1500", only(history, "v", 2_000).value());
    assertEquals("element at 2500", only(history, "v", 2_501).value());
    assertEquals("element at 3000", only(history, "v", 3_001).value());
    history.prune(2_600);
    assertEquals("element at 2500", only(history, "v", 2_600).value());
    assertEquals("element at 3000", only(history, "v", 3_001).value());
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void putsAtOneStampKeepOnlyTheLastWhereTheEngineCanReplaceIt(String engine) {
    open(engine);
    StateHistory history = enable(Map.of("v", VALUE_SPEC), Map.of("v", false));
    watermark = 10;
    at("k", 100);
    for (int i = 0; i < 1_000; i++) {
      internals.state(GLOBAL, VALUE).write("write " + i);
    }
    watermark = 11;
    internals.state(GLOBAL, VALUE).write("after the watermark moved");

    assertEquals("write 999", only(history, "v", 11).value());
    assertEquals("after the watermark moved", only(history, "v", 12).value());
    // Heap replaces the entry of the same stamp (the watermark here); others append and prune.
    if (engine.equals("heap")) {
      assertEquals(2, historyEntries());
    }
    history.prune(11);
    assertEquals(2, historyEntries());
    assertEquals("write 999", only(history, "v", 11).value());
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void snapshotsCarryTheHistoryAndItsHorizon(String engine) {
    open(engine);
    StateHistory history = enable(Map.of("bag", BAG_SPEC), Map.of("bag", true));
    for (int t = 0; t < 10; t++) {
      at(t % 2 == 0 ? "even" : "odd", t);
      internals.state(GLOBAL, BAG).add(t);
    }
    history.prune(4);
    List<CellVersion> atSnapshot = history.cellsAt("bag", 8, null, null, 100).cells();
    SnapshotHandle handle = backend.snapshot(1, tmp.resolve("snap"));

    at("odd", 20);
    internals.state(GLOBAL, BAG).clear();
    history.prune(15);
    assertEquals(15, history.oldestAvailableMillis());

    backend.restore(handle);
    assertEquals(4, history.oldestAvailableMillis());
    assertEquals(atSnapshot, history.cellsAt("bag", 8, null, null, 100).cells());
    assertEquals(2, atSnapshot.size());
    // Recording continues the restored chains.
    at("odd", 30);
    internals.state(GLOBAL, BAG).add(30);
    assertEquals(
        List.of(1, 3, 5, 7, 9, 30),
        history.cellsAt("bag", 31, key("odd"), null, 100).cells().get(0).value());
  }

  @Test
  void chainsOfStatesNoLongerExportedAreLeftAlone() {
    open("heap");
    enable(Map.of("v", VALUE_SPEC), Map.of("v", true));
    at("k", 1);
    internals.state(GLOBAL, VALUE).write("a");
    at("k", 2);
    internals.state(GLOBAL, VALUE).write("b");
    int entries = historyEntries();

    StateHistory other = new StateHistory(backend, Map.of("bag", BAG_SPEC));
    other.prune(100);
    assertEquals(entries, historyEntries());
    assertEquals(100, other.oldestAvailableMillis());
  }

  @Test
  void badConfigurationAndArgumentsAreRefusedWithWhatToDo() {
    open("heap");
    IllegalArgumentException missingConsistency =
        assertThrows(
            IllegalArgumentException.class,
            () -> enable(Map.of("v", VALUE_SPEC, "bag", BAG_SPEC), Map.of("v", true)));
    assertTrue(missingConsistency.getMessage().contains("[bag, v]"));

    IllegalArgumentException hold =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                enable(
                    Map.of("h", StateSpecs.watermarkStateInternal(TimestampCombiner.EARLIEST)),
                    Map.of("h", true)));
    assertTrue(hold.getMessage().contains("watermark hold"), hold.getMessage());

    IllegalArgumentException noCoder =
        assertThrows(
            IllegalArgumentException.class,
            () -> enable(Map.of("v", StateSpecs.value()), Map.of("v", true)));
    assertTrue(noCoder.getMessage().contains("finishSpecifying"), noCoder.getMessage());

    assertThrows(IllegalStateException.class, () -> internals.history());

    StateHistory history = enable(Map.of("v", VALUE_SPEC), Map.of("v", true));
    at("k", 1);
    IllegalStateException kind =
        assertThrows(
            IllegalStateException.class,
            () -> internals.state(GLOBAL, StateTags.tagForSpec("v", BAG_SPEC)));
    assertTrue(kind.getMessage().contains("exported as VALUE"), kind.getMessage());

    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class, () -> history.cellsAt("nope", 1, null, null, 1));
    assertTrue(unknown.getMessage().contains("[v]"), unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> history.cellsAt("v", 1, null, null, 0));
    IllegalArgumentException cursor =
        assertThrows(
            IllegalArgumentException.class,
            () -> history.cellsAt("v", 1, null, new byte[] {1, 2, 3}, 1));
    assertTrue(cursor.getMessage().contains("nextCursor"), cursor.getMessage());
    assertSame(history, internals.history());
  }

  @Test
  void namespacesDecodeToTheirWindow() {
    assertEquals(
        GlobalWindow.INSTANCE,
        StateHistory.windowOf(GLOBAL.stringKey(), IntervalWindow.getCoder()));
    assertEquals(
        GlobalWindow.INSTANCE,
        StateHistory.windowOf(
            StateNamespaces.window(GlobalWindow.Coder.INSTANCE, GlobalWindow.INSTANCE).stringKey(),
            GlobalWindow.Coder.INSTANCE));
    assertEquals(WINDOW, StateHistory.windowOf(WINDOW_NS.stringKey(), IntervalWindow.getCoder()));
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> StateHistory.windowOf("not a namespace", IntervalWindow.getCoder()));
    assertTrue(bad.getMessage().contains("window coder"), bad.getMessage());
  }

  private static byte[] key(String key) {
    try {
      return CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
