package io.arcon.runner.state.history;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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
import org.apache.beam.sdk.transforms.Combine.CombineFn;
import org.apache.beam.sdk.transforms.CombineFnBase;
import org.apache.beam.sdk.transforms.CombineWithContext.CombineFnWithContext;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;

/**
 * What the history needs to know of one exported state id: its kind (which decides the rows of a
 * cell and whether they are lists) and the coders that decode its rows.
 *
 * @param id the state id ({@code @StateId})
 * @param kind the state kind
 * @param mapKeyCoder the map key coder of MAP and MULTIMAP; null for the other kinds
 * @param valueCoder the coder of what is stored: the value (VALUE), the element (BAG, SET,
 *     ORDERED_LIST), the map value (MAP, MULTIMAP) or the accumulator (COMBINING)
 */
public record ExportedState(String id, Kind kind, Coder<?> mapKeyCoder, Coder<?> valueCoder) {

  /** The exportable state kinds (watermark holds are runner-internal and have no history). */
  public enum Kind {
    VALUE(false),
    COMBINING(false),
    BAG(true),
    SET(false),
    MAP(false),
    MULTIMAP(true),
    ORDERED_LIST(true);

    private final boolean listRows;

    Kind(boolean listRows) {
      this.listRows = listRows;
    }

    /**
     * Whether the kind's rows in {@code beam_state} are lists grown by appends (bag, multimap
     * values, ordered list timestamps), as opposed to rows replaced by puts.
     */
    public boolean listRows() {
      return listRows;
    }
  }

  public ExportedState {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(valueCoder, "valueCoder");
  }

  /**
   * What a StateSpec declares, read through Beam's own dispatch ({@link StateSpec#bind}; {@code
   * match} misses combining with context and watermark holds).
   *
   * @param kind the kind, or null for a watermark hold
   * @param mapKeyCoder the map key coder of MAP and MULTIMAP, else null (null too when unknown)
   * @param valueCoder see {@link ExportedState#valueCoder}; null for a hold or when unknown
   * @param combineFn the CombineFn (with or without context) of COMBINING, else null
   */
  public record Declared(
      Kind kind,
      Coder<?> mapKeyCoder,
      Coder<?> valueCoder,
      CombineFnBase.GlobalCombineFn<?, ?, ?> combineFn) {
    public boolean isWatermarkHold() {
      return kind == null;
    }
  }

  /** What {@code spec} declares; coders may still be null if it never met its input's coders. */
  public static Declared declared(String id, StateSpec<?> spec) {
    Objects.requireNonNull(spec, () -> "StateSpec of state '" + id + "'");
    Capture capture = new Capture();
    spec.bind(id, capture);
    return new Declared(capture.kind, capture.mapKeyCoder, capture.valueCoder, capture.fn);
  }

  /** The kind and coders of {@code spec}, which must name its coders (finished specifying). */
  public static ExportedState of(String id, StateSpec<?> spec) {
    Objects.requireNonNull(spec, () -> "StateSpec of exported state '" + id + "'");
    Declared capture = declared(id, spec);
    if (capture.isWatermarkHold()) {
      throw new IllegalArgumentException(
          "State '"
              + id
              + "' is a watermark hold, which the runner keeps for itself: it cannot be"
              + " exported (export value, bag, set, map, multimap, ordered list or combining"
              + " states)");
    }
    boolean keyed = capture.kind() == Kind.MAP || capture.kind() == Kind.MULTIMAP;
    if (capture.valueCoder() == null || (keyed && capture.mapKeyCoder() == null)) {
      throw new IllegalArgumentException(
          "The StateSpec of exported state '"
              + id
              + "' ("
              + capture.kind()
              + ") has no coder: pass the spec after its coders are known (call"
              + " StateSpec.finishSpecifying() once the DoFn's input coders were offered)");
    }
    return new ExportedState(id, capture.kind(), capture.mapKeyCoder(), capture.valueCoder());
  }

  /** {@link #of} for each entry, in the map's order. */
  public static Map<String, ExportedState> ofAll(Map<String, ? extends StateSpec<?>> specs) {
    Map<String, ExportedState> states = new LinkedHashMap<>();
    specs.forEach((id, spec) -> states.put(id, of(id, spec)));
    return states;
  }

  /**
   * Reads kind and coders off a spec through Beam's own dispatch, so every spec class (also
   * combining with context) is covered without inspecting its fields. Binds nothing: the cell is
   * null, the spec only passes its coders here.
   */
  private static final class Capture implements StateBinder {
    private Kind kind;
    private Coder<?> mapKeyCoder;
    private Coder<?> valueCoder;
    private CombineFnBase.GlobalCombineFn<?, ?, ?> fn;

    private <S> S capture(Kind kind, Coder<?> mapKeyCoder, Coder<?> valueCoder) {
      this.kind = kind;
      this.mapKeyCoder = mapKeyCoder;
      this.valueCoder = valueCoder;
      return null;
    }

    @Override
    public <T> ValueState<T> bindValue(String id, StateSpec<ValueState<T>> spec, Coder<T> coder) {
      return capture(Kind.VALUE, null, coder);
    }

    @Override
    public <T> BagState<T> bindBag(String id, StateSpec<BagState<T>> spec, Coder<T> elemCoder) {
      return capture(Kind.BAG, null, elemCoder);
    }

    @Override
    public <T> SetState<T> bindSet(String id, StateSpec<SetState<T>> spec, Coder<T> elemCoder) {
      return capture(Kind.SET, null, elemCoder);
    }

    @Override
    public <KeyT, ValueT> MapState<KeyT, ValueT> bindMap(
        String id,
        StateSpec<MapState<KeyT, ValueT>> spec,
        Coder<KeyT> mapKeyCoder,
        Coder<ValueT> mapValueCoder) {
      return capture(Kind.MAP, mapKeyCoder, mapValueCoder);
    }

    @Override
    public <T> OrderedListState<T> bindOrderedList(
        String id, StateSpec<OrderedListState<T>> spec, Coder<T> elemCoder) {
      return capture(Kind.ORDERED_LIST, null, elemCoder);
    }

    @Override
    public <KeyT, ValueT> MultimapState<KeyT, ValueT> bindMultimap(
        String id,
        StateSpec<MultimapState<KeyT, ValueT>> spec,
        Coder<KeyT> keyCoder,
        Coder<ValueT> valueCoder) {
      return capture(Kind.MULTIMAP, keyCoder, valueCoder);
    }

    @Override
    public <InputT, AccumT, OutputT> CombiningState<InputT, AccumT, OutputT> bindCombining(
        String id,
        StateSpec<CombiningState<InputT, AccumT, OutputT>> spec,
        Coder<AccumT> accumCoder,
        CombineFn<InputT, AccumT, OutputT> combineFn) {
      fn = combineFn;
      return capture(Kind.COMBINING, null, accumCoder);
    }

    @Override
    public <InputT, AccumT, OutputT>
        CombiningState<InputT, AccumT, OutputT> bindCombiningWithContext(
            String id,
            StateSpec<CombiningState<InputT, AccumT, OutputT>> spec,
            Coder<AccumT> accumCoder,
            CombineFnWithContext<InputT, AccumT, OutputT> combineFn) {
      fn = combineFn;
      return capture(Kind.COMBINING, null, accumCoder);
    }

    @Override
    public WatermarkHoldState bindWatermark(
        String id, StateSpec<WatermarkHoldState> spec, TimestampCombiner timestampCombiner) {
      return capture(null, null, null);
    }
  }
}
