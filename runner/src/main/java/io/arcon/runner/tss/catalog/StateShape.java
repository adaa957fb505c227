package io.arcon.runner.tss.catalog;

import io.arcon.runner.state.history.ExportedState;
import io.arcon.tss.proto.StateKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.CombineFnBase;
import org.apache.beam.sdk.transforms.CombineWithContext;

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
    ExportedState.Declared declared = ExportedState.declared("tss-catalog", spec);
    if (declared.isWatermarkHold()) {
      return new StateShape(StateKind.WATERMARK_HOLD, List.of(), null);
    }
    List<Coder<?>> coders =
        switch (declared.kind()) {
          case MAP, MULTIMAP -> Arrays.asList(declared.mapKeyCoder(), declared.valueCoder());
          default -> Arrays.asList(declared.valueCoder());
        };
    for (Coder<?> c : coders) {
      if (c == null) {
        throw new IllegalArgumentException(
            where
                + ": its StateSpec has no coder yet. Beam fills in state coders when the ParDo is"
                + " applied to its input, so build the catalog from the DoFn of the applied"
                + " transform (after pipeline construction), or give StateSpecs the coder"
                + " explicitly (e.g. StateSpecs.value(StringUtf8Coder.of()))");
      }
    }
    StateKind kind =
        switch (declared.kind()) {
          case VALUE -> StateKind.VALUE;
          case COMBINING -> StateKind.COMBINING;
          case BAG -> StateKind.BAG;
          case SET -> StateKind.SET;
          case MAP -> StateKind.MAP;
          case MULTIMAP -> StateKind.MULTIMAP;
          case ORDERED_LIST -> StateKind.ORDERED_LIST;
        };
    return new StateShape(kind, Collections.unmodifiableList(coders), declared.combineFn());
  }

  Coder<?> coder(int i) {
    return coders.get(i);
  }
}
