package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.RowType;
import io.arcon.tss.proto.StateKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.schemas.NoSuchSchemaException;
import org.apache.beam.sdk.schemas.SchemaRegistry;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * The exported value of one cell of a user state (one key, one window): its TSS type, and the
 * conversion from the cell's Beam-level decoded content, as the state reader hands it over, to the
 * model value.
 *
 * <table>
 *   <caption>Per kind: what the reader hands over, and the exported type</caption>
 *   <tr><th>kind</th><th>Beam value of a cell</th><th>type</th></tr>
 *   <tr><td>value</td><td>{@code T}</td><td>type of T</td></tr>
 *   <tr><td>bag</td><td>{@code Iterable<T>} (kept in order)</td><td>{@code LIST<T>}</td></tr>
 *   <tr><td>set</td><td>{@code Iterable<T>}</td><td>{@code LIST<T>} sorted by
 *       the elements' encodings, so equal sets give equal lists</td></tr>
 *   <tr><td>map</td><td>{@code Map<K, V>}</td><td>{@code MAP<K, V>}</td></tr>
 *   <tr><td>multimap</td><td>{@code Map<K, Iterable<V>>}</td><td>{@code MAP<K, LIST<V>>}</td></tr>
 *   <tr><td>ordered list</td><td>{@code Iterable<TimestampedValue<T>>}</td>
 *       <td>{@code LIST<ROW<timestamp TIMESTAMP NOT NULL, value T>>}</td></tr>
 *   <tr><td>combining</td><td>the accumulator</td><td>the type of the CombineFn's output</td></tr>
 * </table>
 *
 * <p><b>Combining state</b> is exported as what {@code CombiningState.read()} returns: {@code
 * extractOutput(accumulator)}, typed by the output coder that Beam's registries give for the
 * CombineFn's output type (schema registry first, then coder registry, as ParDo finds state
 * coders). When there is none (a generic output type such as {@code List<T>}) the value is OPAQUE:
 * the <em>accumulator's</em> encoded bytes, because the accumulator coder is always known and its
 * bytes are the state itself (they can be decoded and fed back to the CombineFn), with the output's
 * {@code toString()} as readable text, because that is the value users see. A {@code
 * CombineFnWithContext} cannot compute its output outside a running DoFn (it needs side inputs and
 * options), so its state is exported as the accumulator, typed by the accumulator coder.
 */
public final class StateValueMapping {
  private static final String TIMESTAMP_FIELD = "timestamp";
  private static final String VALUE_FIELD = "value";

  private final StateKind kind;
  private final List<Coder<?>> coders;
  private final FieldType type;
  private final Function<Object, Object> toModel;

  private StateValueMapping(
      StateKind kind, List<Coder<?>> coders, FieldType type, Function<Object, Object> toModel) {
    this.kind = kind;
    this.coders = coders;
    this.type = type;
    this.toModel = toModel;
  }

  /**
   * The mapping of a state declared by {@code spec}, whose coders must be filled in (Beam does so
   * when the ParDo is applied).
   *
   * @param stateId the state's {@code @StateId}, for error messages
   * @param transform the transform declaring the state, for error messages
   * @throws IllegalArgumentException if the spec has no coder, or is a watermark hold (runner
   *     state, not user state)
   */
  public static StateValueMapping forSpec(StateSpec<?> spec, String stateId, String transform) {
    String where = "state '" + stateId + "' of transform '" + transform + "'";
    StateShape shape = StateShape.of(spec, where);
    return forShape(shape, where);
  }

  static StateValueMapping forShape(StateShape shape, String where) {
    switch (shape.kind()) {
      case VALUE:
        {
          CoderMapping value = CoderTypes.of(shape.coder(0));
          return new StateValueMapping(shape.kind(), shape.coders(), value.type(), value::toModel);
        }
      case BAG:
        {
          CoderMapping element = CoderTypes.of(shape.coder(0));
          return new StateValueMapping(
              shape.kind(),
              shape.coders(),
              new ListType(element.type()),
              v -> CoderTypes.listOf((Iterable<?>) v, element));
        }
      case SET:
        {
          @SuppressWarnings("unchecked")
          Coder<Object> elementCoder = (Coder<Object>) shape.coder(0);
          CoderMapping element = CoderTypes.of(elementCoder);
          return new StateValueMapping(
              shape.kind(),
              shape.coders(),
              new ListType(element.type()),
              v ->
                  CoderTypes.listOf(CanonicalOrder.byEncoding(iterable(v), elementCoder), element));
        }
      case MAP:
        {
          CoderMapping key = CoderTypes.of(shape.coder(0));
          CoderMapping value = CoderTypes.of(shape.coder(1));
          return new StateValueMapping(
              shape.kind(),
              shape.coders(),
              new MapType(key.type(), value.type()),
              v -> CoderTypes.mapOf((Map<?, ?>) v, key, value));
        }
      case MULTIMAP:
        return multimap(shape);
      case ORDERED_LIST:
        return orderedList(shape);
      case COMBINING:
        return combining(shape);
      default:
        throw new IllegalArgumentException(
            where + " is a " + shape.kind() + ", which is runner state, not exported user state");
    }
  }

  /** The state's kind. */
  public StateKind kind() {
    return kind;
  }

  /**
   * The spec's coders: the element coder (value, bag, set, ordered list), the key and value coders
   * (map, multimap), or the accumulator coder (combining).
   */
  public List<Coder<?>> coders() {
    return coders;
  }

  /** The exported type of one cell's value. */
  public FieldType type() {
    return type;
  }

  /** Converts one cell's Beam-level content (see the class table) to the model value. */
  public Object toModel(Object cellValue) {
    return cellValue == null ? null : toModel.apply(cellValue);
  }

  @Override
  public String toString() {
    return kind + " -> " + type;
  }

  private static StateValueMapping multimap(StateShape shape) {
    CoderMapping key = CoderTypes.of(shape.coder(0));
    CoderMapping value = CoderTypes.of(shape.coder(1));
    return new StateValueMapping(
        shape.kind(),
        shape.coders(),
        new MapType(key.type(), new ListType(value.type())),
        v -> {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            if (e.getKey() == null) {
              throw new IllegalArgumentException(
                  "a multimap state holds a null key, which a TSS map column cannot store");
            }
            out.put(key.toModel(e.getKey()), CoderTypes.listOf(iterable(e.getValue()), value));
          }
          return Collections.unmodifiableMap(out);
        });
  }

  private static StateValueMapping orderedList(StateShape shape) {
    CoderMapping value = CoderTypes.of(shape.coder(0));
    RowType entry =
        RowType.of(
            Field.required(TIMESTAMP_FIELD, FieldType.TIMESTAMP),
            new Field(VALUE_FIELD, value.type(), value.nullable()));
    return new StateValueMapping(
        shape.kind(),
        shape.coders(),
        new ListType(entry),
        v -> {
          List<Object> out = new ArrayList<>();
          for (Object o : iterable(v)) {
            TimestampedValue<?> tv = (TimestampedValue<?>) o;
            out.add(
                CoderTypes.fields(Times.toJava(tv.getTimestamp()), value.toModel(tv.getValue())));
          }
          return Collections.unmodifiableList(out);
        });
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static StateValueMapping combining(StateShape shape) {
    Coder<Object> accumulatorCoder = (Coder<Object>) shape.coder(0);
    if (!(shape.combineFn() instanceof Combine.CombineFn fn)) {
      // CombineFnWithContext: see the class comment.
      CoderMapping accumulator = CoderTypes.of(accumulatorCoder);
      return new StateValueMapping(
          shape.kind(), shape.coders(), accumulator.type(), accumulator::toModel);
    }
    Optional<Coder<?>> outputCoder = outputCoder(fn);
    if (outputCoder.isPresent()) {
      CoderMapping output = CoderTypes.of(outputCoder.get());
      return new StateValueMapping(
          shape.kind(),
          shape.coders(),
          output.type(),
          acc -> output.toModel(fn.extractOutput(acc)));
    }
    OpaqueType type =
        OpaqueType.of(
            accumulatorCoder + " (accumulator of " + fn.getClass().getName() + ", output shown)");
    return new StateValueMapping(
        shape.kind(),
        shape.coders(),
        type,
        acc -> {
          // Encode first: extractOutput may reuse the accumulator.
          byte[] bytes = CoderTypes.encode(accumulatorCoder, acc);
          return new OpaqueValue(bytes, Readables.of(fn.extractOutput(acc)));
        });
  }

  /** The coder Beam's default registries give for the output type of {@code fn}, if any. */
  private static Optional<Coder<?>> outputCoder(Combine.CombineFn<?, ?, ?> fn) {
    TypeDescriptor<?> output;
    try {
      output = fn.getOutputType();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (output.hasUnresolvedParameters()) {
      return Optional.empty();
    }
    try {
      return Optional.of(SchemaRegistry.createDefault().getSchemaCoder(output));
    } catch (NoSuchSchemaException e) {
      // not a schema type: try the coder registry
    }
    try {
      return Optional.of(CoderRegistry.createDefault().getCoder(output));
    } catch (CannotProvideCoderException e) {
      return Optional.empty();
    }
  }

  @SuppressWarnings("unchecked")
  private static Iterable<Object> iterable(Object v) {
    return (Iterable<Object>) v;
  }
}
