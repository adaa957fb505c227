package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BackendStateInternalsTest {
  private static final StateNamespace GLOBAL = StateNamespaces.global();
  private static final StateNamespace WINDOW_NS =
      StateNamespaces.window(
          IntervalWindow.getCoder(), new IntervalWindow(new Instant(0), new Instant(10_000)));

  private static final StateTag<ValueState<String>> VALUE =
      StateTags.value("value", StringUtf8Coder.of());
  private static final StateTag<BagState<String>> BAG = StateTags.bag("bag", StringUtf8Coder.of());
  private static final StateTag<SetState<String>> SET = StateTags.set("set", StringUtf8Coder.of());
  private static final StateTag<MapState<String, Integer>> MAP =
      StateTags.map("map", StringUtf8Coder.of(), VarIntCoder.of());
  private static final StateTag<MultimapState<String, Integer>> MULTIMAP =
      StateTags.multimap("multimap", StringUtf8Coder.of(), VarIntCoder.of());
  private static final StateTag<OrderedListState<String>> ORDERED =
      StateTags.orderedList("ordered", StringUtf8Coder.of());
  private static final StateTag<CombiningState<Integer, int[], Integer>> SUM =
      StateTags.combiningValueFromInputInternal("sum", VarIntCoder.of(), Sum.ofIntegers());
  private static final StateTag<WatermarkHoldState> EARLIEST =
      StateTags.watermarkStateInternal("hold", TimestampCombiner.EARLIEST);
  private static final StateTag<WatermarkHoldState> LATEST =
      StateTags.watermarkStateInternal("latestHold", TimestampCombiner.LATEST);
  private static final StateTag<WatermarkHoldState> END_OF_WINDOW =
      StateTags.watermarkStateInternal("eowHold", TimestampCombiner.END_OF_WINDOW);

  @TempDir Path tmp;
  private StateBackend backend;
  private BackendStateInternals<String> internals;

  private void open(String engine) {
    backend = TestBackends.open(engine, tmp.resolve("db"));
    internals = new BackendStateInternals<>(backend, StringUtf8Coder.of());
  }

  @AfterEach
  void close() {
    if (backend != null) {
      backend.close();
    }
  }

  private static <T> List<T> list(Iterable<T> it) {
    List<T> out = new ArrayList<>();
    it.forEach(out::add);
    return out;
  }

  private static List<StateEntry> rows(StateTable table) {
    List<StateEntry> out = new ArrayList<>();
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void minimumWatermarkHoldIsTheMinimumOverKeysAndNamespaces(String engine) {
    open(engine);
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, internals.minimumWatermarkHold());

    internals.setKey("a");
    internals.state(GLOBAL, EARLIEST).add(new Instant(5_000));
    internals.state(WINDOW_NS, EARLIEST).add(new Instant(7_000));
    internals.setKey("b");
    internals.state(WINDOW_NS, EARLIEST).add(new Instant(3_000));
    assertEquals(new Instant(3_000), internals.minimumWatermarkHold());

    internals.setKey("a");
    internals.state(GLOBAL, EARLIEST).add(new Instant(1_000));
    assertEquals(new Instant(1_000), internals.minimumWatermarkHold());
    // A later timestamp does not move an EARLIEST hold.
    internals.state(GLOBAL, EARLIEST).add(new Instant(9_000));
    assertEquals(new Instant(1_000), internals.state(GLOBAL, EARLIEST).read());

    internals.state(GLOBAL, EARLIEST).clear();
    assertEquals(new Instant(3_000), internals.minimumWatermarkHold());

    internals.setKey("b");
    internals.clearNamespace(WINDOW_NS);
    assertEquals(new Instant(7_000), internals.minimumWatermarkHold());
    internals.setKey("a");
    internals.clearKey();
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, internals.minimumWatermarkHold());
    assertTrue(rows(backend.table(BackendStateInternals.HOLD_INDEX_TABLE)).isEmpty());
    assertTrue(rows(backend.table(BackendStateInternals.HOLD_TABLE)).isEmpty());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void latestAndEndOfWindowHoldsMoveTheIndexEntry(String engine) {
    open(engine);
    internals.setKey("k");
    WatermarkHoldState latest = internals.state(GLOBAL, LATEST);
    latest.add(new Instant(1_000));
    latest.add(new Instant(4_000));
    latest.add(new Instant(2_000));
    assertEquals(new Instant(4_000), latest.read());
    assertEquals(new Instant(4_000), internals.minimumWatermarkHold());
    assertEquals(1, rows(backend.table(BackendStateInternals.HOLD_INDEX_TABLE)).size());

    WatermarkHoldState eow = internals.state(WINDOW_NS, END_OF_WINDOW);
    eow.add(new Instant(9_999));
    eow.add(new Instant(5_000));
    assertEquals(new Instant(9_999), eow.read());
    assertEquals(new Instant(4_000), internals.minimumWatermarkHold());
    latest.clear();
    assertEquals(new Instant(9_999), internals.minimumWatermarkHold());
    assertTrue(latest.isEmpty().read());
    assertFalse(eow.isEmpty().read());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void orderedListReadsAndClearsRangesInTimeOrder(String engine) {
    open(engine);
    internals.setKey("k");
    OrderedListState<String> list = internals.state(GLOBAL, ORDERED);
    ReadableState<Boolean> empty = list.isEmpty();
    assertTrue(empty.read());
    list.add(TimestampedValue.of("thirty", new Instant(30)));
    list.add(TimestampedValue.of("ten", new Instant(10)));
    list.add(TimestampedValue.of("twenty", new Instant(20)));
    list.add(TimestampedValue.of("ten-again", new Instant(10)));
    list.add(TimestampedValue.of("negative", new Instant(-5)));
    assertFalse(empty.read());

    assertEquals(
        List.of(
            TimestampedValue.of("negative", new Instant(-5)),
            TimestampedValue.of("ten", new Instant(10)),
            TimestampedValue.of("ten-again", new Instant(10)),
            TimestampedValue.of("twenty", new Instant(20)),
            TimestampedValue.of("thirty", new Instant(30))),
        list(list.read()));
    assertEquals(
        List.of(
            TimestampedValue.of("ten", new Instant(10)),
            TimestampedValue.of("ten-again", new Instant(10)),
            TimestampedValue.of("twenty", new Instant(20))),
        list(list.readRange(new Instant(10), new Instant(30))));
    assertTrue(list(list.readRange(new Instant(31), new Instant(1_000))).isEmpty());
    assertTrue(list(list.readRange(new Instant(30), new Instant(10))).isEmpty());

    list.clearRange(new Instant(10), new Instant(20));
    assertEquals(
        List.of(
            TimestampedValue.of("negative", new Instant(-5)),
            TimestampedValue.of("twenty", new Instant(20)),
            TimestampedValue.of("thirty", new Instant(30))),
        list(list.read()));

    // Another key's list is untouched by this key's clear.
    internals.setKey("other");
    OrderedListState<String> other = internals.state(GLOBAL, ORDERED);
    other.add(TimestampedValue.of("x", new Instant(0)));
    list.clear();
    assertTrue(empty.read());
    assertEquals(1, list(other.read()).size());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void everyRowRecordsTheEventTimeThatWroteIt(String engine) {
    open(engine);
    internals.setKey("k");
    internals.setEventTime(new Instant(1_234));
    internals.state(GLOBAL, VALUE).write("v");
    internals.state(GLOBAL, BAG).add("b1");
    internals.state(GLOBAL, MAP).put("m", 1);
    internals.state(GLOBAL, SET).add("s");
    internals.state(GLOBAL, SUM).add(3);
    internals.state(GLOBAL, EARLIEST).add(new Instant(100));
    internals.setEventTime(new Instant(-7));
    internals.state(GLOBAL, BAG).add("b2");
    internals.state(GLOBAL, MULTIMAP).put("mm", 2);
    internals.state(GLOBAL, ORDERED).add(TimestampedValue.of("o", new Instant(5)));

    Set<Long> plain = new HashSet<>();
    List<Long> listStamps = new ArrayList<>();
    for (StateEntry row : rows(backend.table(BackendStateInternals.STATE_TABLE))) {
      String key = new String(row.key(), java.nio.charset.StandardCharsets.UTF_8);
      if (key.contains("bag") || key.contains("multimap") || key.contains("ordered")) {
        row.elements().forEach(e -> listStamps.add(StateCoding.updatedAt(e)));
      } else {
        plain.add(StateCoding.updatedAt(row.value()));
      }
    }
    assertEquals(Set.of(1_234L), plain);
    assertEquals(List.of(1_234L, -7L, -7L, -7L), listStamps);
    StateEntry hold = rows(backend.table(BackendStateInternals.HOLD_TABLE)).get(0);
    assertEquals(1_234L, StateCoding.updatedAt(hold.value()));
    assertEquals(new Instant(-7), internals.getEventTime());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void multimapKeepsEveryValuePerKey(String engine) {
    open(engine);
    internals.setKey("k");
    MultimapState<String, Integer> mm = internals.state(GLOBAL, MULTIMAP);
    ReadableState<Boolean> isEmpty = mm.isEmpty();
    ReadableState<Boolean> containsA = mm.containsKey("a");
    ReadableState<Iterable<Integer>> getA = mm.get("a");
    assertTrue(isEmpty.read());
    assertFalse(containsA.read());

    mm.put("a", 1);
    mm.put("a", 2);
    mm.put("a", 1);
    mm.put("b", 3);
    assertFalse(isEmpty.read());
    assertTrue(containsA.read());
    assertEquals(List.of(1, 2, 1), list(getA.read()));
    assertEquals(Set.of("a", "b"), new HashSet<>(list(mm.keys().read())));
    assertEquals(
        List.of(Map.entry("a", 1), Map.entry("a", 2), Map.entry("a", 1), Map.entry("b", 3)),
        list(mm.entries().read()));
    assertTrue(list(mm.get("missing").read()).isEmpty());

    Iterable<Integer> before = getA.read();
    mm.remove("a");
    assertEquals(List.of(1, 2, 1), list(before));
    assertFalse(containsA.read());
    assertEquals(List.of("b"), list(mm.keys().read()));
    mm.remove("not-there");
    mm.clear();
    assertTrue(isEmpty.read());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void cellsStayBoundToTheKeyTheyWereObtainedFor(String engine) {
    open(engine);
    internals.setKey("a");
    ValueState<String> aValue = internals.state(GLOBAL, VALUE);
    aValue.write("for-a");
    internals.setKey("b");
    ValueState<String> bValue = internals.state(GLOBAL, VALUE);
    assertNull(bValue.read());
    bValue.write("for-b");
    assertEquals("for-a", aValue.read());
    assertFalse(aValue.equals(bValue));
    internals.setKey("a");
    assertEquals(aValue, internals.state(GLOBAL, VALUE));
    assertEquals("a", internals.getKey());
    // A key that is a byte prefix of another must not see the other's rows.
    internals.setKey("ab");
    assertNull(internals.state(GLOBAL, VALUE).read());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void cellCacheFollowsKeyNamespaceAndSpec(String engine) {
    open(engine);
    StateSpec<ValueState<String>> spec = StateSpecs.value(StringUtf8Coder.of());
    internals.setKey("a");
    // Runners wrap the DoFn's one spec object in a new tag on every access.
    ValueState<String> first = internals.state(GLOBAL, StateTags.tagForSpec("v", spec));
    assertSame(first, internals.state(GLOBAL, StateTags.tagForSpec("v", spec)));
    assertSame(
        first,
        internals.state(GLOBAL, StateTags.tagForSpec("v", StateSpecs.value(StringUtf8Coder.of()))));
    first.write("a-global");
    // The same id as another kind of state binds that kind (a cached ValueState would not cast).
    BagState<String> bag = internals.state(GLOBAL, StateTags.bag("v", StringUtf8Coder.of()));
    assertFalse(bag.equals(first));

    // More namespaces than the cache holds, across key switches, each still at its own address.
    int windows = BackendStateInternals.MAX_CACHED_CELLS + 5_000;
    for (int i = 0; i < windows; i++) {
      internals.setKey("a");
      internals.state(windowNamespace(i), VALUE).write("a" + i);
      internals.setKey("b");
      internals.state(windowNamespace(i), VALUE).write("b" + i);
    }
    for (int i = 0; i < windows; i++) {
      internals.setKey(i % 2 == 0 ? "a" : "b");
      assertEquals((i % 2 == 0 ? "a" : "b") + i, internals.state(windowNamespace(i), VALUE).read());
    }
    // Many ids in one namespace, asked for in changing orders, each at its own address.
    int ids = 11;
    for (int round = 0; round < 3; round++) {
      for (int j = 0; j < ids; j++) {
        int id = (j * (round + 3)) % ids;
        internals.setKey(round % 2 == 0 ? "a" : "b");
        ValueState<String> cell =
            internals.state(windowNamespace(7), StateTags.value("id" + id, StringUtf8Coder.of()));
        if (round < 2) {
          cell.write(round + ":" + id);
        } else {
          assertEquals("0:" + id, cell.read());
        }
      }
    }
    internals.setKey("a");
    assertEquals("a-global", internals.state(GLOBAL, StateTags.tagForSpec("v", spec)).read());
  }

  /**
   * Cells re-made for another key (without re-binding the tag) keep their kind, coders and combine
   * function.
   */
  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void cellsRemadeAfterKeySwitchesKeepKindAndCoders(String engine) {
    open(engine);
    StateTag<BagState<String>> bagTag = StateTags.bag("bag", StringUtf8Coder.of());
    StateTag<MapState<String, Integer>> mapTag =
        StateTags.map("map", StringUtf8Coder.of(), VarIntCoder.of());
    StateTag<SetState<Integer>> setTag = StateTags.set("set", VarIntCoder.of());
    for (String key : List.of("a", "b", "c", "a", "b", "c")) {
      internals.setKey(key);
      internals.state(GLOBAL, bagTag).add(key);
      internals.state(GLOBAL, mapTag).put(key, key.length());
      internals.state(GLOBAL, setTag).add((int) key.charAt(0));
      internals.state(GLOBAL, VALUE).write(key + "!");
      internals.state(GLOBAL, SUM).add((int) key.charAt(0));
    }
    for (String key : List.of("a", "b", "c")) {
      internals.setKey(key);
      assertEquals(List.of(key, key), toList(internals.state(GLOBAL, bagTag).read()));
      assertEquals(Integer.valueOf(1), internals.state(GLOBAL, mapTag).get(key).read());
      assertTrue(internals.state(GLOBAL, setTag).contains((int) key.charAt(0)).read());
      assertEquals(key + "!", internals.state(GLOBAL, VALUE).read());
      assertEquals(2 * key.charAt(0), internals.state(GLOBAL, SUM).read());
    }
  }

  /**
   * Cells of one id in many namespaces met for the first time, and the same id with another kind or
   * coder in further new namespaces: each binds its own kind and coder, at its own address.
   */
  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void newNamespacesBindTheKindAndCoderOfTheirSpec(String engine) {
    open(engine);
    StateSpec<BagState<String>> bags = StateSpecs.bag(StringUtf8Coder.of());
    internals.setKey("a");
    for (int i = 0; i < 50; i++) {
      internals.state(windowNamespace(i), StateTags.tagForSpec("x", bags)).add("w" + i);
    }
    // The same id with another kind, then with another coder, in namespaces not seen before.
    internals.state(windowNamespace(100), StateTags.value("x", VarIntCoder.of())).write(100);
    internals.state(windowNamespace(101), StateTags.bag("x", VarIntCoder.of())).add(101);
    internals.state(windowNamespace(102), StateTags.tagForSpec("x", bags)).add("w102");

    internals.setKey("b");
    for (int i = 0; i < 50; i++) {
      assertEquals(
          List.of(),
          toList(internals.state(windowNamespace(i), StateTags.tagForSpec("x", bags)).read()));
    }
    internals.setKey("a");
    for (int i = 0; i < 50; i++) {
      assertEquals(
          List.of("w" + i),
          toList(internals.state(windowNamespace(i), StateTags.tagForSpec("x", bags)).read()));
    }
    assertEquals(
        Integer.valueOf(100),
        internals.state(windowNamespace(100), StateTags.value("x", VarIntCoder.of())).read());
    assertEquals(
        List.of(101),
        toList(internals.state(windowNamespace(101), StateTags.bag("x", VarIntCoder.of())).read()));
    assertEquals(
        List.of("w102"),
        toList(internals.state(windowNamespace(102), StateTags.tagForSpec("x", bags)).read()));
  }

  private static <T> List<T> toList(Iterable<T> items) {
    List<T> list = new ArrayList<>();
    items.forEach(list::add);
    return list;
  }

  private static StateNamespace windowNamespace(int i) {
    return StateNamespaces.window(
        IntervalWindow.getCoder(), new IntervalWindow(new Instant(i), new Instant(i + 1)));
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void combiningAndMapStateBasics(String engine) {
    open(engine);
    internals.setKey("k");
    CombiningState<Integer, int[], Integer> sum = internals.state(GLOBAL, SUM);
    assertEquals(0, sum.read());
    sum.add(4);
    sum.addAccum(new int[] {6});
    assertEquals(10, sum.read());
    MapState<String, Integer> map = internals.state(WINDOW_NS, MAP);
    assertNull(map.computeIfAbsent("x", k -> 7).read());
    assertEquals(7, map.computeIfAbsent("x", k -> 8).read());
    assertEquals(5, map.getOrDefault("y", 5).read());
    map.put("y", 1);
    assertEquals(List.of(7, 1), list(map.values().read()));
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void clearNamespaceAndClearKeyRemoveEveryKindOfCell(String engine) {
    open(engine);
    for (String key : List.of("a", "b")) {
      internals.setKey(key);
      for (StateNamespace ns : List.of(GLOBAL, WINDOW_NS)) {
        internals.state(ns, VALUE).write(key);
        internals.state(ns, BAG).add(key);
        internals.state(ns, SET).add(key);
        internals.state(ns, MAP).put(key, 1);
        internals.state(ns, MULTIMAP).put(key, 1);
        internals.state(ns, ORDERED).add(TimestampedValue.of(key, new Instant(1)));
        internals.state(ns, SUM).add(1);
        internals.state(ns, EARLIEST).add(new Instant(key.equals("a") ? 10 : 20));
      }
    }
    internals.setKey("a");
    internals.clearNamespace(WINDOW_NS);
    assertTrue(internals.state(WINDOW_NS, BAG).isEmpty().read());
    assertNull(internals.state(WINDOW_NS, VALUE).read());
    assertTrue(internals.state(WINDOW_NS, MULTIMAP).isEmpty().read());
    assertTrue(internals.state(WINDOW_NS, ORDERED).isEmpty().read());
    assertEquals("a", internals.state(GLOBAL, VALUE).read());
    assertEquals(new Instant(10), internals.minimumWatermarkHold());

    internals.clearKey();
    assertNull(internals.state(GLOBAL, VALUE).read());
    assertTrue(internals.state(GLOBAL, SET).isEmpty().read());
    assertTrue(internals.state(GLOBAL, MAP).isEmpty().read());
    assertTrue(internals.state(GLOBAL, SUM).isEmpty().read());
    assertEquals(new Instant(20), internals.minimumWatermarkHold());

    // 16 cells of key "b" (8 kinds x 2 namespaces) remain: 14 in the state table, 2 holds.
    internals.setKey("b");
    assertEquals("b", internals.state(WINDOW_NS, VALUE).read());
    assertEquals(14, rows(backend.table(BackendStateInternals.STATE_TABLE)).size());
    assertEquals(2, rows(backend.table(BackendStateInternals.HOLD_TABLE)).size());

    // Writing null to a value clears it, as a cleared cell reads null.
    internals.state(GLOBAL, VALUE).write(null);
    assertEquals(13, rows(backend.table(BackendStateInternals.STATE_TABLE)).size());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void stateIsKeyedOnlyAfterSetKey(String engine) {
    open(engine);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> internals.state(GLOBAL, VALUE));
    assertTrue(e.getMessage().contains("setKey"));
    assertThrows(IllegalArgumentException.class, () -> internals.setKey("x", null));
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void everythingSurvivesSnapshotMutateRestore(String engine) {
    open(engine);
    BackendTimerStore timers = new BackendTimerStore(backend, IntervalWindow.getCoder());
    KeyedTimerInternals timerInternals = new KeyedTimerInternals(timers, internals);

    internals.setKey("k");
    internals.setEventTime(new Instant(50));
    internals.state(GLOBAL, VALUE).write("v1");
    internals.state(GLOBAL, BAG).add("b1");
    internals.state(GLOBAL, SET).add("s1");
    internals.state(GLOBAL, MAP).put("m", 1);
    internals.state(GLOBAL, MULTIMAP).put("mm", 1);
    internals.state(GLOBAL, ORDERED).add(TimestampedValue.of("o1", new Instant(1)));
    internals.state(GLOBAL, SUM).add(5);
    internals.state(WINDOW_NS, EARLIEST).add(new Instant(2_000));
    timerInternals.setTimer(
        WINDOW_NS, "t", "", new Instant(9_999), new Instant(9_999), TimeDomain.EVENT_TIME);

    var handle = backend.snapshot(1, tmp.resolve("snap-1"));

    internals.state(GLOBAL, VALUE).write("v2");
    internals.state(GLOBAL, BAG).add("b2");
    internals.state(GLOBAL, SET).remove("s1");
    internals.state(GLOBAL, MAP).put("m2", 2);
    internals.state(GLOBAL, MULTIMAP).remove("mm");
    internals.state(GLOBAL, ORDERED).clear();
    internals.state(GLOBAL, SUM).add(5);
    internals.state(WINDOW_NS, EARLIEST).clear();
    internals.state(GLOBAL, EARLIEST).add(new Instant(1));
    timerInternals.deleteTimer(WINDOW_NS, "t", "");
    // Draining teaches the store that no event-time timer is left; afterRestore must forget that.
    assertNull(timers.pollFirstBefore(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    internals.setKey("other");
    internals.state(GLOBAL, VALUE).write("other");

    backend.restore(handle);
    timers.afterRestore();

    assertNull(internals.state(GLOBAL, VALUE).read());
    internals.setKey("k");
    assertEquals("v1", internals.state(GLOBAL, VALUE).read());
    assertEquals(List.of("b1"), list(internals.state(GLOBAL, BAG).read()));
    assertEquals(List.of("s1"), list(internals.state(GLOBAL, SET).read()));
    assertEquals(List.of(Map.entry("m", 1)), list(internals.state(GLOBAL, MAP).entries().read()));
    assertEquals(List.of(1), list(internals.state(GLOBAL, MULTIMAP).get("mm").read()));
    assertEquals(
        List.of(TimestampedValue.of("o1", new Instant(1))),
        list(internals.state(GLOBAL, ORDERED).read()));
    assertEquals(5, internals.state(GLOBAL, SUM).read());
    assertNull(internals.state(GLOBAL, EARLIEST).read());
    assertEquals(new Instant(2_000), internals.minimumWatermarkHold());
    assertEquals(new Instant(9_999), timers.nextTimestamp(TimeDomain.EVENT_TIME));
    KeyedTimer fired =
        timers.pollFirstBefore(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE);
    assertEquals("t", fired.timer().getTimerId());
    assertEquals(WINDOW_NS, fired.timer().getNamespace());
  }
}
