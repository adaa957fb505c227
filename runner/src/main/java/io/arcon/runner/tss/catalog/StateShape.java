package io.arcon.runner.tss.catalog;

import io.arcon.tss.proto.StateKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateBinder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.CombineFnBase;
import org.apache.beam.sdk.transforms.CombineWithContext;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;

/**
 * What a {@link StateSpec} declares: its kind, its coders and, for combining state, its combine
 * function.
 *
 * <p>Read with {@link StateSpec#bind} rather than {@link StateSpec#match}: {@code match} does not
 * support combining state with a context ({@code CombineFnWithContext}) and watermark holds, and
 * {@code bind} reaches every kind.
 *
 * @param kind the state's kind
 * @param coders the spec's coders: the element coder (value, bag, set, ordered list), the key and
 *     value coders (map, multimap), the accumulator coder (combining); empty for a watermark hold
 * @param combineFn the combine function of a combining state ({@link Combine.CombineFn} or {@link
 *     CombineWithContext.CombineFnWithContext}), else {@code null}
 */
record StateShape(
    StateKind kind, List<Coder<?>> coders, CombineFnBase.GlobalCombineFn<?, ?, ?> combineFn) {

  /**
   * @param where the state and transform, for the error message
   * @throws IllegalArgumentException if the spec still lacks a coder (it was never applied in a
   *     pipeline and names no coder itself)
   */
  static StateShape of(StateSpec<?> spec, String where) {
    Capture capture = new Capture();
    spec.bind("tss-catalog", capture);
    if (capture.kind == null) {
      throw new IllegalArgumentException(
          where + ": its StateSpec " + spec.getClass().getName() + " binds no known state kind");
    }
    for (Coder<?> c : capture.coders) {
      if (c == null) {
        throw new IllegalArgumentException(
            where
                + ": its StateSpec has no coder yet. Beam fills in state coders when the ParDo is"
                + " applied to its input, so build the catalog from the DoFn of the applied"
                + " transform (after pipeline construction), or give StateSpecs the coder"
                + " explicitly (e.g. StateSpecs.value(StringUtf8Coder.of()))");
      }
    }
    return new StateShape(
        capture.kind, Collections.unmodifiableList(Arrays.asList(capture.coders)), capture.fn);
  }

  Coder<?> coder(int i) {
    return coders.get(i);
  }

  /** Records the kind and coders of the one bind call a spec makes; creates no state. */
  private static final class Capture implements StateBinder {
    StateKind kind;
    Coder<?>[] coders = new Coder<?>[0];
    CombineFnBase.GlobalCombineFn<?, ?, ?> fn;

    private <T> T record(StateKind k, Coder<?>... cs) {
      kind = k;
      coders = cs;
      return null;
    }

    @Override
    public <T> ValueState<T> bindValue(String id, StateSpec<ValueState<T>> spec, Coder<T> coder) {
      return record(StateKind.VALUE, coder);
    }

    @Override
    public <T> BagState<T> bindBag(String id, StateSpec<BagState<T>> spec, Coder<T> elemCoder) {
      return record(StateKind.BAG, elemCoder);
    }

    @Override
    public <T> SetState<T> bindSet(String id, StateSpec<SetState<T>> spec, Coder<T> elemCoder) {
      return record(StateKind.SET, elemCoder);
    }

    @Override
    public <K, V> MapState<K, V> bindMap(
        String id, StateSpec<MapState<K, V>> spec, Coder<K> mapKeyCoder, Coder<V> mapValueCoder) {
      return record(StateKind.MAP, mapKeyCoder, mapValueCoder);
    }

    @Override
    public <T> OrderedListState<T> bindOrderedList(
        String id, StateSpec<OrderedListState<T>> spec, Coder<T> elemCoder) {
      return record(StateKind.ORDERED_LIST, elemCoder);
    }

    @Override
    public <K, V> MultimapState<K, V> bindMultimap(
        String id, StateSpec<MultimapState<K, V>> spec, Coder<K> keyCoder, Coder<V> valueCoder) {
      return record(StateKind.MULTIMAP, keyCoder, valueCoder);
    }

    @Override
    public <InputT, AccumT, OutputT> CombiningState<InputT, AccumT, OutputT> bindCombining(
        String id,
        StateSpec<CombiningState<InputT, AccumT, OutputT>> spec,
        Coder<AccumT> accumCoder,
        Combine.CombineFn<InputT, AccumT, OutputT> combineFn) {
      fn = combineFn;
      return record(StateKind.COMBINING, accumCoder);
    }

    @Override
    public <InputT, AccumT, OutputT>
        CombiningState<InputT, AccumT, OutputT> bindCombiningWithContext(
            String id,
            StateSpec<CombiningState<InputT, AccumT, OutputT>> spec,
            Coder<AccumT> accumCoder,
            CombineWithContext.CombineFnWithContext<InputT, AccumT, OutputT> combineFn) {
      fn = combineFn;
      return record(StateKind.COMBINING, accumCoder);
    }

    @Override
    public WatermarkHoldState bindWatermark(
        String id, StateSpec<WatermarkHoldState> spec, TimestampCombiner timestampCombiner) {
      return record(StateKind.WATERMARK_HOLD);
    }
  }
}
