package io.arcon.runner.tss.catalog;

import static io.arcon.runner.tss.catalog.CoderTypesTest.assertModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.tss.catalog.CoderTypesTest.Note;
import io.arcon.runner.tss.catalog.SchemaTypesTest.Profile;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.Names;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.Values;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import io.arcon.tss.write.ParquetVersionReader;
import io.arcon.tss.write.ParquetVersionWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog of real DoFns applied in a pipeline: the StateSpecs have the coders Beam filled in
 * when the ParDos were applied, as the translator sees them.
 */
class UserStateCatalogTest {

  /** One DoFn with every user state kind, a timer (never listed) and inferred coders. */
  static class EveryKindFn extends DoFn<KV<String, Long>, Void> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> count = StateSpecs.value();

    @StateId("events")
    private final StateSpec<BagState<String>> events = StateSpecs.bag();

    @StateId("users")
    private final StateSpec<SetState<String>> users = StateSpecs.set();

    @StateId("perPage")
    private final StateSpec<MapState<String, Integer>> perPage = StateSpecs.map();

    @StateId("visitsByPage")
    private final StateSpec<MultimapState<String, Long>> visitsByPage = StateSpecs.multimap();

    @StateId("timeline")
    private final StateSpec<OrderedListState<String>> timeline =
        StateSpecs.orderedList(StringUtf8Coder.of());

    @StateId("total")
    private final StateSpec<CombiningState<Long, long[], Long>> total =
        StateSpecs.combining(Sum.ofLongs());

    @StateId("mean")
    private final StateSpec<CombiningState<Long, KV<Long, Long>, Double>> mean =
        StateSpecs.combining(new StateValueMappingTest.MeanFn());

    @StateId("profile")
    private final StateSpec<ValueState<Profile>> profile = StateSpecs.value();

    @StateId("note")
    private final StateSpec<ValueState<Note>> note = StateSpecs.value();

    @StateId("click-count")
    private final StateSpec<ValueState<Integer>> clickCount = StateSpecs.value();

    @TimerId("flush")
    private final TimerSpec flush = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(@StateId("count") ValueState<Long> count, @TimerId("flush") Timer flush) {}

    @OnTimer("flush")
    public void onFlush() {}
  }

  /** A per-key counter, for any key type. */
  static class CounterFn<K> extends DoFn<KV<K, Long>, Void> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> count = StateSpecs.value();

    @ProcessElement
    public void process(@StateId("count") ValueState<Long> count) {}
  }

  /** An exactly exported counter: time-sorted input. */
  static class SortedCounterFn extends DoFn<KV<String, Long>, Void> {
    @StateId("last")
    private final StateSpec<ValueState<Long>> last = StateSpecs.value();

    @RequiresTimeSortedInput
    @ProcessElement
    public void process(@StateId("last") ValueState<Long> last) {}
  }

  /** A composite that applies an anonymous counter unnamed, as user code often does. */
  static class CountIn extends PTransform<PCollection<KV<String, Long>>, PCollection<Void>> {
    @Override
    public PCollection<Void> expand(PCollection<KV<String, Long>> input) {
      return input.apply(
          ParDo.of(
              new DoFn<KV<String, Long>, Void>() {
                @StateId("count")
                private final StateSpec<ValueState<Long>> count = StateSpecs.value();

                @ProcessElement
                public void process(@StateId("count") ValueState<Long> count) {}
              }));
    }
  }

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.create());
  }

  private static <K> PCollection<KV<K, Long>> input(Pipeline p, Coder<K> keyCoder, K key) {
    return p.apply(
        "Input " + keyCoder.getClass().getSimpleName() + " " + key,
        Create.of(KV.of(key, 1L)).withCoder(KvCoder.of(keyCoder, VarLongCoder.of())));
  }

  @Test
  void everyUserStateKindIsListedWithItsTypes() {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "alice").apply("Count clicks", ParDo.of(new EveryKindFn()));
    List<StatefulDoFnInfo> transforms = StatefulTransforms.of(p, "rocksdb");
    assertEquals(1, transforms.size());
    String fullName = transforms.get(0).transformFullName();
    UserStateCatalog catalog = UserStateCatalog.build(transforms);

    Map<String, UserState> byId =
        catalog.states().stream().collect(Collectors.toMap(UserState::stateId, s -> s));
    assertEquals(
        Set.of(
            "count",
            "events",
            "users",
            "perPage",
            "visitsByPage",
            "timeline",
            "total",
            "mean",
            "profile",
            "note",
            "click-count"),
        byId.keySet(),
        "every @StateId and nothing else (no timer)");

    // Written down from the declarations above, not from the code under test.
    Map<String, StateKind> kinds =
        Map.ofEntries(
            Map.entry("count", StateKind.VALUE),
            Map.entry("events", StateKind.BAG),
            Map.entry("users", StateKind.SET),
            Map.entry("perPage", StateKind.MAP),
            Map.entry("visitsByPage", StateKind.MULTIMAP),
            Map.entry("timeline", StateKind.ORDERED_LIST),
            Map.entry("total", StateKind.COMBINING),
            Map.entry("mean", StateKind.COMBINING),
            Map.entry("profile", StateKind.VALUE),
            Map.entry("note", StateKind.VALUE),
            Map.entry("click-count", StateKind.VALUE));
    Map<String, String> types =
        Map.of(
            "count", "INT64",
            "events", "LIST<STRING>",
            "users", "LIST<STRING>",
            "perPage", "MAP<STRING, INT32>",
            "visitsByPage", "MAP<STRING, LIST<INT64>>",
            "timeline", "LIST<ROW<timestamp TIMESTAMP NOT NULL, value STRING NOT NULL>>",
            "total", "INT64",
            "mean", "DOUBLE",
            "click-count", "INT32");
    for (UserState s : catalog.states()) {
      assertEquals(kinds.get(s.stateId()), s.kind(), s.stateId());
      if (types.containsKey(s.stateId())) {
        assertEquals(FieldType.parse(types.get(s.stateId())), s.value().type(), s.stateId());
      }
      assertEquals(fullName, s.transformFullName());
      assertEquals(Consistency.WATERMARK_CUT, s.consistency());
      assertEquals("rocksdb", s.backend());
      assertEquals(FieldType.STRING, s.key().type());
      // Unique ids are the names; an id that is no identifier is sanitized.
      assertEquals(Names.sanitize(s.stateId()), s.name());
      assertTrue(Names.isValidState(s.name()), s.name());
    }
    assertEquals("click_count", byId.get("click-count").name());

    RowType profile = assertInstanceOf(RowType.class, byId.get("profile").value().type());
    assertEquals(
        Set.of("name", "tags", "visits", "home"),
        profile.fields().stream().map(f -> f.name()).collect(Collectors.toSet()));
    OpaqueType note = assertInstanceOf(OpaqueType.class, byId.get("note").value().type());
    assertTrue(note.coder().contains(Note.class.getName()), note.coder());

    StateDescriptor d = catalog.byName("perPage").orElseThrow().descriptor();
    assertEquals(
        new StateDescriptor(
            "perPage",
            fullName,
            "perPage",
            StateKind.MAP,
            new StateSchema(FieldType.STRING, FieldType.parse("MAP<STRING, INT32>")),
            "rocksdb",
            Consistency.WATERMARK_CUT),
        d);
    assertEquals(catalog.states(), catalog.ofTransform(fullName));
    assertTrue(catalog.byName("flush").isEmpty());
    assertTrue(catalog.ofTransform("no such transform").isEmpty());
  }

  /** A Beam-level cell of each state of {@link EveryKindFn}, with its expected model value. */
  private static Map<String, Object[]> cellsAndExpectations() {
    Map<String, Integer> perPage = new LinkedHashMap<>();
    perPage.put("/home", 2);
    perPage.put("/cart", 1);
    Map<String, Iterable<Long>> visits = new LinkedHashMap<>();
    visits.put("/home", List.of(5L, 7L));
    Map<String, Object[]> cells = new LinkedHashMap<>();
    cells.put("count", new Object[] {3L, 3L});
    cells.put("events", new Object[] {List.of("view", "buy"), List.of("view", "buy")});
    cells.put(
        "users", new Object[] {new LinkedHashSet<>(List.of("zoe", "bob")), List.of("bob", "zoe")});
    cells.put("perPage", new Object[] {perPage, Map.of("/home", 2, "/cart", 1)});
    cells.put("visitsByPage", new Object[] {visits, Map.of("/home", List.of(5L, 7L))});
    cells.put(
        "timeline",
        new Object[] {
          List.of(TimestampedValue.of("in", new org.joda.time.Instant(10L))),
          List.of(List.of(Instant.ofEpochMilli(10L), "in"))
        });
    cells.put("total", new Object[] {new long[] {42L}, 42L});
    cells.put("mean", new Object[] {KV.of(9L, 2L), 4.5});
    cells.put("click-count", new Object[] {8, 8});
    return cells;
  }

  @Test
  void everyStatesCellsSurviveTheParquetWriter(@TempDir Path dir) throws Exception {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "alice").apply("Count clicks", ParDo.of(new EveryKindFn()));
    UserStateCatalog catalog = UserStateCatalog.build(StatefulTransforms.of(p, "heap"));
    Map<String, Object> cells = new LinkedHashMap<>();
    Map<String, Object> expected = new LinkedHashMap<>();
    cellsAndExpectations()
        .forEach(
            (id, pair) -> {
              cells.put(id, pair[0]);
              expected.put(id, pair[1]);
            });
    cells.put("profile", SchemaTypesTest.profile());
    Note note = new Note("great", 5);
    cells.put("note", note);

    Instant version = Instant.parse("2026-01-01T00:00:00Z");
    for (UserState s : catalog.states()) {
      Object model = s.value().toModel(cells.get(s.stateId()));
      Object key = s.key().toModel("alice");
      StateSchema schema = s.descriptor().schema();
      String file = dir.resolve(s.name() + ".parquet").toString();
      new ParquetVersionWriter()
          .writeVersion(
              file,
              schema,
              List.of(new StateRow(key, null, model, version.minusMillis(1))),
              version);
      StateRow read = new ParquetVersionReader().read(file).rows().get(0);
      Values.check(schema.valueType(), read.value(), true, s.name());
      assertEquals("alice", read.key());
      assertModel(model, read.value());
      if (expected.containsKey(s.stateId())) {
        assertModel(expected.get(s.stateId()), read.value());
      }
      if (s.stateId().equals("note")) {
        OpaqueValue v = (OpaqueValue) read.value();
        assertEquals(note.toString(), v.readable());
        assertEquals(
            note,
            org.apache.beam.sdk.util.CoderUtils.decodeFromByteArray(
                SerializableCoder.of(Note.class), v.bytes()));
      }
    }
  }

  @Test
  void keyTypesComeFromTheInputKvCoderAndClashingIdsGetTheirTransformName() {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "alice").apply("by user", ParDo.of(new CounterFn<String>()));
    input(p, VarLongCoder.of(), 7L).apply("by id", ParDo.of(new CounterFn<Long>()));
    input(p, VarIntCoder.of(), 3).apply("by shard", ParDo.of(new CounterFn<Integer>()));
    input(p, KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()), KV.of("eu", 1))
        .apply("by (region, day)", ParDo.of(new CounterFn<KV<String, Integer>>()));
    input(p, StringUtf8Coder.of(), "bob").apply("sorted", ParDo.of(new SortedCounterFn()));
    UserStateCatalog catalog = UserStateCatalog.build(StatefulTransforms.of(p, "lmdb"));

    Map<String, UserState> byName =
        catalog.states().stream().collect(Collectors.toMap(UserState::name, s -> s));
    assertEquals(
        Set.of("by_user.count", "by_id.count", "by_shard.count", "by_region_day.count", "last"),
        byName.keySet());

    UserState user = byName.get("by_user.count");
    assertEquals(FieldType.STRING, user.key().type());
    assertEquals("alice", user.key().toBeam("alice"));
    assertEquals("by user/ParMultiDo(Counter)", user.transformFullName());
    assertEquals(List.of(user), catalog.ofTransform("by user/ParMultiDo(Counter)"));

    UserState id = byName.get("by_id.count");
    assertEquals(FieldType.INT64, id.key().type());
    assertEquals(7L, id.key().toBeam(7L));
    assertEquals(7L, id.key().toModel(7L));

    UserState shard = byName.get("by_shard.count");
    assertEquals(FieldType.INT32, shard.key().type());
    assertEquals(3, shard.key().toBeam(3));

    UserState pair = byName.get("by_region_day.count");
    assertEquals(
        FieldType.parse("ROW<key STRING NOT NULL, value INT32 NOT NULL>"), pair.key().type());
    assertModel(List.of("eu", 1), pair.key().toModel(KV.of("eu", 1)));
    assertFalse(pair.key().invertible());
    assertNull(pair.key().toBeam(List.of("eu", 1)));

    assertEquals(Consistency.EXACT, byName.get("last").consistency());
    assertEquals(Consistency.WATERMARK_CUT, user.consistency());
    assertEquals("lmdb", byName.get("last").descriptor().backend());
  }

  @Test
  void clashingTransformsWithTheSameLastSegmentUseTheirWholeName() {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "a").apply("Count clicks", new CountIn());
    input(p, StringUtf8Coder.of(), "b").apply("Count steps", new CountIn());
    input(p, StringUtf8Coder.of(), "c").apply("sorted", ParDo.of(new SortedCounterFn()));
    List<StatefulDoFnInfo> transforms = StatefulTransforms.of(p, "heap");
    assertEquals(
        List.of(
            "Count clicks/ParDo(Anonymous)/ParMultiDo(Anonymous)",
            "Count steps/ParDo(Anonymous)/ParMultiDo(Anonymous)",
            "sorted/ParMultiDo(SortedCounter)"),
        transforms.stream().map(StatefulDoFnInfo::transformFullName).toList());
    UserStateCatalog catalog = UserStateCatalog.build(transforms);
    assertEquals(
        List.of("Count_clicks_ParDo_Anonymous.count", "Count_steps_ParDo_Anonymous.count", "last"),
        catalog.states().stream().map(UserState::name).toList());
    for (UserState s : catalog.states()) {
      assertTrue(Names.isValidState(s.name()), s.name());
    }
  }

  @Test
  void theLastSegmentNamesTheTransformWhenItIsDistinct() {
    // Infos as a translator would pass them for composite transforms with distinct last segments.
    UserStateCatalog catalog =
        UserStateCatalog.build(
            List.of(
                new StatefulDoFnInfo(
                    "Count clicks/ParDo(Anonymous)",
                    applied(new CounterFn<String>()),
                    StringUtf8Coder.of(),
                    "heap",
                    false),
                new StatefulDoFnInfo(
                    "Count steps/Per user (v2)",
                    applied(new CounterFn<String>()),
                    StringUtf8Coder.of(),
                    "heap",
                    true)));
    assertEquals(
        List.of("ParDo_Anonymous.count", "Per_user_v2.count"),
        catalog.states().stream().map(UserState::name).toList());
    assertEquals(
        Consistency.EXACT, catalog.byName("Per_user_v2.count").orElseThrow().consistency());
  }

  /** {@code fn} after Beam applied it (its StateSpecs have coders). */
  private static <F extends DoFn<KV<String, Long>, Void>> F applied(F fn) {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "x").apply(ParDo.of(fn));
    return fn;
  }

  @Test
  void transformsThatDifferOnlyInPunctuationCannotBeToldApart() {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "a").apply("Count clicks", ParDo.of(new CounterFn<String>()));
    input(p, StringUtf8Coder.of(), "b").apply("Count-clicks", ParDo.of(new CounterFn<String>()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> UserStateCatalog.build(StatefulTransforms.of(p, "heap")));
    assertTrue(e.getMessage().contains("'Count_clicks.count'"), e.getMessage());
    assertTrue(e.getMessage().contains("Count clicks/ParMultiDo(Counter)"), e.getMessage());
    assertTrue(e.getMessage().contains("Count-clicks/ParMultiDo(Counter)"), e.getMessage());
  }

  @Test
  void aDoFnThatWasNeverAppliedHasNoCodersAndIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                UserStateCatalog.build(
                    List.of(
                        new StatefulDoFnInfo(
                            "Count",
                            new CounterFn<String>(),
                            StringUtf8Coder.of(),
                            "heap",
                            false))));
    assertTrue(e.getMessage().contains("state 'count' of transform 'Count'"), e.getMessage());
    assertTrue(e.getMessage().contains("no coder"), e.getMessage());
  }

  @Test
  void aTransformListedTwiceIsRefused() {
    CounterFn<String> fn = applied(new CounterFn<String>());
    StatefulDoFnInfo info = new StatefulDoFnInfo("Count", fn, StringUtf8Coder.of(), "heap", false);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UserStateCatalog.build(List.of(info, info)));
    assertTrue(e.getMessage().contains("listed twice"), e.getMessage());
  }

  @Test
  void aTimerOnlyDoFnHasNoStates() {
    Pipeline p = pipeline();
    input(p, StringUtf8Coder.of(), "a")
        .apply(
            "Timer only",
            ParDo.of(
                new DoFn<KV<String, Long>, Void>() {
                  @TimerId("t")
                  private final TimerSpec t = TimerSpecs.timer(TimeDomain.EVENT_TIME);

                  @ProcessElement
                  public void process(@TimerId("t") Timer t) {}

                  @OnTimer("t")
                  public void onT() {}
                }));
    List<StatefulDoFnInfo> transforms = StatefulTransforms.of(p, "heap");
    assertEquals(1, transforms.size(), "the timer makes it a stateful transform");
    assertTrue(UserStateCatalog.build(transforms).states().isEmpty());
  }
}
