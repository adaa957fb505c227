package io.arcon.runner.tss.catalog;

import static io.arcon.runner.tss.catalog.CoderTypesTest.assertModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.Values;
import io.arcon.tss.proto.StateKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.CombineWithContext;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.jupiter.api.Test;

/** The per-kind shape of a state cell's exported value. */
class StateValueMappingTest {

  private static Object convert(StateValueMapping mapping, Object cell) {
    Object model = mapping.toModel(cell);
    Values.check(mapping.type(), model, true, "value");
    return model;
  }

  private static StateValueMapping forSpec(StateSpec<?> spec) {
    return StateValueMapping.forSpec(spec, "s", "T");
  }

  @Test
  void valueStateIsItsValue() {
    StateValueMapping m = forSpec(StateSpecs.value(VarLongCoder.of()));
    assertEquals(StateKind.VALUE, m.kind());
    assertEquals(FieldType.INT64, m.type());
    assertModel(5L, convert(m, 5L));
    assertEquals(List.of(VarLongCoder.of()), m.coders());
  }

  @Test
  void bagStateIsAListInBagOrder() {
    StateValueMapping m = forSpec(StateSpecs.bag(StringUtf8Coder.of()));
    assertEquals(StateKind.BAG, m.kind());
    assertEquals(FieldType.parse("LIST<STRING>"), m.type());
    assertModel(List.of("b", "a", "b"), convert(m, List.of("b", "a", "b")));
  }

  @Test
  void setStateIsAListInOneOrder() {
    StateValueMapping m = forSpec(StateSpecs.set(VarIntCoder.of()));
    assertEquals(StateKind.SET, m.kind());
    assertEquals(FieldType.parse("LIST<INT32>"), m.type());
    // VarInt encodes 0..127 as one byte equal to the value, so encoding order is numeric order.
    Object one = convert(m, new LinkedHashSet<>(List.of(42, 7, 99, 0)));
    Object other = convert(m, new LinkedHashSet<>(List.of(99, 0, 42, 7)));
    assertModel(List.of(0, 7, 42, 99), one);
    assertModel(one, other);
  }

  @Test
  void mapStateIsAMap() {
    StateValueMapping m = forSpec(StateSpecs.map(StringUtf8Coder.of(), DoubleCoder.of()));
    assertEquals(StateKind.MAP, m.kind());
    assertEquals(FieldType.parse("MAP<STRING, DOUBLE>"), m.type());
    assertModel(Map.of("x", 1.0, "y", 2.0), convert(m, Map.of("x", 1.0, "y", 2.0)));
    assertEquals(List.of(StringUtf8Coder.of(), DoubleCoder.of()), m.coders());
  }

  @Test
  void multimapStateIsAMapOfLists() {
    StateValueMapping m = forSpec(StateSpecs.multimap(StringUtf8Coder.of(), VarLongCoder.of()));
    assertEquals(StateKind.MULTIMAP, m.kind());
    assertEquals(FieldType.parse("MAP<STRING, LIST<INT64>>"), m.type());
    Map<String, Iterable<Long>> cell = new LinkedHashMap<>();
    cell.put("a", List.of(1L, 1L, 2L));
    cell.put("b", List.of(3L));
    assertModel(Map.of("a", List.of(1L, 1L, 2L), "b", List.of(3L)), convert(m, cell));
  }

  @Test
  void orderedListIsAListOfTimestampedRows() {
    StateValueMapping m = forSpec(StateSpecs.orderedList(StringUtf8Coder.of()));
    assertEquals(StateKind.ORDERED_LIST, m.kind());
    assertEquals(
        FieldType.parse("LIST<ROW<timestamp TIMESTAMP NOT NULL, value STRING NOT NULL>>"),
        m.type());
    List<TimestampedValue<String>> cell =
        List.of(
            TimestampedValue.of("first", new org.joda.time.Instant(1_000L)),
            TimestampedValue.of("second", new org.joda.time.Instant(2_500L)));
    assertModel(
        List.of(
            List.of(Instant.ofEpochMilli(1_000L), "first"),
            List.of(Instant.ofEpochMilli(2_500L), "second")),
        convert(m, cell));
  }

  @Test
  void sumOfLongsIsItsOutput() throws Exception {
    Combine.BinaryCombineLongFn sum = Sum.ofLongs();
    Coder<long[]> accumulatorCoder =
        sum.getAccumulatorCoder(CoderRegistry.createDefault(), VarLongCoder.of());
    StateValueMapping m = forSpec(StateSpecs.combining(accumulatorCoder, sum));
    assertEquals(StateKind.COMBINING, m.kind());
    assertEquals(FieldType.INT64, m.type());
    long[] acc = sum.createAccumulator();
    for (long x : new long[] {4, 5, -2}) {
      acc = sum.addInput(acc, x);
    }
    assertModel(7L, convert(m, roundTrip(accumulatorCoder, acc)));
  }

  /** Mean of longs; accumulator (sum, count) as a KV. */
  static final class MeanFn extends Combine.CombineFn<Long, KV<Long, Long>, Double> {
    @Override
    public KV<Long, Long> createAccumulator() {
      return KV.of(0L, 0L);
    }

    @Override
    public KV<Long, Long> addInput(KV<Long, Long> acc, Long input) {
      return KV.of(acc.getKey() + input, acc.getValue() + 1);
    }

    @Override
    public KV<Long, Long> mergeAccumulators(Iterable<KV<Long, Long>> accs) {
      KV<Long, Long> out = createAccumulator();
      for (KV<Long, Long> a : accs) {
        out = KV.of(out.getKey() + a.getKey(), out.getValue() + a.getValue());
      }
      return out;
    }

    @Override
    public Double extractOutput(KV<Long, Long> acc) {
      return acc.getValue() == 0 ? 0.0 : (double) acc.getKey() / acc.getValue();
    }

    @Override
    public Coder<KV<Long, Long>> getAccumulatorCoder(CoderRegistry r, Coder<Long> in) {
      return KvCoder.of(VarLongCoder.of(), VarLongCoder.of());
    }
  }

  @Test
  void aCustomCombineFnIsItsOutputTypedByItsOutputType() throws Exception {
    MeanFn mean = new MeanFn();
    StateValueMapping m =
        forSpec(StateSpecs.combining(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()), mean));
    assertEquals(FieldType.DOUBLE, m.type());
    assertModel(2.5, convert(m, KV.of(10L, 4L)));
  }

  /** Collects its inputs; its output type is {@code List<T>}, which no registry can code. */
  static final class CollectFn<T> extends Combine.CombineFn<T, List<T>, List<T>> {
    @Override
    public List<T> createAccumulator() {
      return new ArrayList<>();
    }

    @Override
    public List<T> addInput(List<T> acc, T input) {
      acc.add(input);
      return acc;
    }

    @Override
    public List<T> mergeAccumulators(Iterable<List<T>> accs) {
      List<T> out = new ArrayList<>();
      accs.forEach(out::addAll);
      return out;
    }

    @Override
    public List<T> extractOutput(List<T> acc) {
      return acc;
    }
  }

  @Test
  void aCombineFnWithoutAnOutputCoderIsTheAccumulatorsBytesShowingTheOutput() throws Exception {
    Coder<List<String>> accumulatorCoder = ListCoder.of(StringUtf8Coder.of());
    StateValueMapping m = forSpec(StateSpecs.combining(accumulatorCoder, new CollectFn<String>()));
    OpaqueType type = assertInstanceOf(OpaqueType.class, m.type());
    assertTrue(type.coder().contains(accumulatorCoder.toString()), type.coder());
    List<String> acc = new ArrayList<>(List.of("a", "b"));
    OpaqueValue v = (OpaqueValue) convert(m, acc);
    assertEquals("[a, b]", v.readable());
    assertEquals(acc, CoderUtils.decodeFromByteArray(accumulatorCoder, v.bytes()));
  }

  /** Sums longs, with a context it does not use; the accumulator is the running sum. */
  static final class SumWithContext
      extends CombineWithContext.CombineFnWithContext<Long, Long, Long> {
    @Override
    public Long createAccumulator(CombineWithContext.Context c) {
      return 0L;
    }

    @Override
    public Long addInput(Long acc, Long input, CombineWithContext.Context c) {
      return acc + input;
    }

    @Override
    public Long mergeAccumulators(Iterable<Long> accs, CombineWithContext.Context c) {
      long out = 0;
      for (long a : accs) {
        out += a;
      }
      return out;
    }

    @Override
    public Long extractOutput(Long acc, CombineWithContext.Context c) {
      return acc;
    }
  }

  @Test
  void aCombineFnWithContextIsItsAccumulator() {
    StateValueMapping m = forSpec(StateSpecs.combining(VarLongCoder.of(), new SumWithContext()));
    assertEquals(StateKind.COMBINING, m.kind());
    assertEquals(FieldType.INT64, m.type());
    assertModel(12L, convert(m, 12L));
  }

  @Test
  void aSpecWithoutCoderFailsSayingHowToFixIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StateValueMapping.forSpec(StateSpecs.value(), "count", "Count clicks"));
    assertTrue(
        e.getMessage().contains("state 'count' of transform 'Count clicks'"), e.getMessage());
    assertTrue(e.getMessage().contains("no coder"), e.getMessage());
  }

  @Test
  void watermarkHoldsAreNotUserState() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> forSpec(StateSpecs.watermarkStateInternal(TimestampCombiner.EARLIEST)));
    assertTrue(e.getMessage().contains("not exported user state"), e.getMessage());
  }

  private static <T> T roundTrip(Coder<T> coder, T value) throws Exception {
    return CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, value));
  }
}
