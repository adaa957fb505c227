package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.RowType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.beam.sdk.coders.BigDecimalCoder;
import org.apache.beam.sdk.coders.BigEndianIntegerCoder;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.BigEndianShortCoder;
import org.apache.beam.sdk.coders.BigIntegerCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.ByteCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.FloatCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.IterableLikeCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.LengthPrefixCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.coders.SortedMapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.TextualIntegerCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;

/**
 * Maps a Beam {@link Coder} to the TSS type of its values (DESIGN §6 "Output layout"): standard
 * coders become real columns, Beam schema rows become nested columns, anything else is {@link
 * OpaqueType opaque}: the coder's encoded bytes plus a readable string.
 *
 * <ul>
 *   <li>{@code StringUtf8Coder} → STRING; {@code VarIntCoder}, {@code BigEndianIntegerCoder},
 *       {@code TextualIntegerCoder}, {@code BigEndianShortCoder}, {@code ByteCoder} → INT32; {@code
 *       VarLongCoder}, {@code BigEndianLongCoder} → INT64; {@code FloatCoder} → FLOAT; {@code
 *       DoubleCoder} → DOUBLE; {@code BooleanCoder} → BOOLEAN; {@code ByteArrayCoder} → BYTES;
 *       {@code InstantCoder} (Joda) → TIMESTAMP ({@link java.time.Instant}); {@code
 *       BigDecimalCoder}, {@code BigIntegerCoder} → STRING in plain decimal notation, like schema
 *       DECIMALs ({@link SchemaTypes}).
 *   <li>{@code KvCoder} → {@code ROW<key, value>}; {@code NullableCoder} and {@code
 *       LengthPrefixCoder} → the inner type ({@code NullableCoder} makes it nullable).
 *   <li>{@code ListCoder}, {@code IterableCoder}, {@code CollectionCoder}, {@code SetCoder}, {@code
 *       DequeCoder} → LIST; a set's elements are sorted by their encodings, so equal sets give
 *       equal lists.
 *   <li>{@code MapCoder}, {@code SortedMapCoder} → MAP (iteration order kept).
 *   <li>{@code SchemaCoder} (so {@code RowCoder} and the coders of {@code @DefaultSchema} POJOs,
 *       JavaBeans and AutoValues) → ROW with one field per schema field ({@link SchemaTypes}).
 * </ul>
 *
 * <p>Opaque bytes are {@link CoderUtils#encodeToByteArray(Coder, Object)}: the coder's encoding in
 * the outer context, which {@link CoderUtils#decodeFromByteArray(Coder, byte[])} reads back.
 */
public final class CoderTypes {
  private CoderTypes() {}

  /** The mapping of {@code coder}'s values; never fails (unknown coders map to OPAQUE). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static CoderMapping of(Coder<?> coder) {
    if (coder == null) {
      throw new IllegalArgumentException(
          "no coder given; a state's coders are set when its ParDo is applied, or pass one to"
              + " StateSpecs explicitly");
    }
    if (coder instanceof StringUtf8Coder) {
      return primitive(coder, FieldType.STRING, String.class, v -> v, v -> v);
    }
    if (coder instanceof VarIntCoder
        || coder instanceof BigEndianIntegerCoder
        || coder instanceof TextualIntegerCoder) {
      return primitive(coder, FieldType.INT32, Integer.class, v -> v, v -> v);
    }
    if (coder instanceof BigEndianShortCoder) {
      return primitive(
          coder,
          FieldType.INT32,
          Integer.class,
          v -> ((Short) v).intValue(),
          v -> narrow((Integer) v, Short.MIN_VALUE, Short.MAX_VALUE, coder, i -> (short) i));
    }
    if (coder instanceof ByteCoder) {
      return primitive(
          coder,
          FieldType.INT32,
          Integer.class,
          v -> ((Byte) v).intValue(),
          v -> narrow((Integer) v, Byte.MIN_VALUE, Byte.MAX_VALUE, coder, i -> (byte) i));
    }
    if (coder instanceof VarLongCoder || coder instanceof BigEndianLongCoder) {
      return primitive(coder, FieldType.INT64, Long.class, v -> v, v -> v);
    }
    if (coder instanceof FloatCoder) {
      return primitive(coder, FieldType.FLOAT, Float.class, v -> v, v -> v);
    }
    if (coder instanceof DoubleCoder) {
      return primitive(coder, FieldType.DOUBLE, Double.class, v -> v, v -> v);
    }
    if (coder instanceof BooleanCoder) {
      return primitive(coder, FieldType.BOOLEAN, Boolean.class, v -> v, v -> v);
    }
    if (coder instanceof ByteArrayCoder) {
      return primitive(coder, FieldType.BYTES, byte[].class, v -> v, v -> ((byte[]) v).clone());
    }
    if (coder instanceof InstantCoder) {
      return primitive(
          coder,
          FieldType.TIMESTAMP,
          java.time.Instant.class,
          v -> Times.toJava((org.joda.time.ReadableInstant) v),
          v -> Times.toJoda((java.time.Instant) v));
    }
    if (coder instanceof BigDecimalCoder) {
      // As schema DECIMALs (SchemaTypes): exact digits, castable in SQL.
      return new CoderMapping(
          coder, FieldType.STRING, false, v -> ((BigDecimal) v).toPlainString(), null);
    }
    if (coder instanceof BigIntegerCoder) {
      return new CoderMapping(coder, FieldType.STRING, false, v -> v.toString(), null);
    }
    if (coder instanceof NullableCoder<?> nullable) {
      return of(nullable.getValueCoder()).asNullable(coder);
    }
    if (coder instanceof LengthPrefixCoder<?> prefixed) {
      // The prefix only frames the inner encoding; the values are the inner coder's.
      CoderMapping inner = of(prefixed.getValueCoder());
      return new CoderMapping(
          coder,
          inner.type(),
          inner.nullable(),
          inner::toModel,
          inner.invertible() ? inner::toBeam : null);
    }
    if (coder instanceof KvCoder<?, ?> kv) {
      return kv(coder, of(kv.getKeyCoder()), of(kv.getValueCoder()));
    }
    if (coder instanceof IterableLikeCoder<?, ?> iterable) {
      Coder<Object> elementCoder = (Coder<Object>) iterable.getElemCoder();
      CoderMapping element = of(elementCoder);
      boolean isSet = coder instanceof SetCoder;
      return new CoderMapping(
          coder,
          new ListType(element.type()),
          false,
          v -> {
            Iterable<Object> elements =
                isSet
                    ? CanonicalOrder.byEncoding((Iterable<Object>) v, elementCoder)
                    : (Iterable) v;
            return listOf(elements, element);
          },
          null);
    }
    if (coder instanceof MapCoder<?, ?> map) {
      return map(coder, of(map.getKeyCoder()), of(map.getValueCoder()));
    }
    if (coder instanceof SortedMapCoder<?, ?> map) {
      return map(coder, of(map.getKeyCoder()), of(map.getValueCoder()));
    }
    if (coder instanceof SchemaCoder<?> schemaCoder) {
      CoderMapping row = schema((SchemaCoder<Object>) schemaCoder);
      if (row != null) {
        return row;
      }
    }
    return opaque(coder);
  }

  /**
   * The opaque mapping of {@code coder}: encoded bytes plus readable text (the value's {@code
   * toString()}, arrays element by element), for coders without a known structure.
   */
  @SuppressWarnings("unchecked")
  public static CoderMapping opaque(Coder<?> coder) {
    Coder<Object> c = (Coder<Object>) coder;
    return new CoderMapping(
        coder,
        OpaqueType.of(coder.toString()),
        false,
        v -> new OpaqueValue(encode(c, v), Readables.of(v)),
        null);
  }

  /**
   * {@code value} encoded with {@code coder} ({@link CoderUtils#encodeToByteArray(Coder, Object)}).
   *
   * @throws IllegalArgumentException if the coder cannot encode it
   */
  static byte[] encode(Coder<Object> coder, Object value) {
    try {
      return CoderUtils.encodeToByteArray(coder, value);
    } catch (CoderException | RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot encode the value "
              + Readables.of(value)
              + " with its coder "
              + coder
              + ": "
              + e.getMessage()
              + "; the state holds a value its StateSpec's coder does not accept",
          e);
    }
  }

  private static CoderMapping primitive(
      Coder<?> coder,
      FieldType type,
      Class<?> modelClass,
      Function<Object, Object> toModel,
      Function<Object, Object> toBeam) {
    return new CoderMapping(
        coder,
        type,
        false,
        toModel,
        v -> {
          if (!modelClass.isInstance(v)) {
            throw new IllegalArgumentException(
                "a "
                    + type
                    + " value of "
                    + coder
                    + " must be a "
                    + modelClass.getSimpleName()
                    + ", but got a "
                    + v.getClass().getName());
          }
          return toBeam.apply(v);
        });
  }

  private static Object narrow(
      int value, int min, int max, Coder<?> coder, java.util.function.IntFunction<Object> cast) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          value
              + " is not a value of "
              + coder
              + ": it only holds values from "
              + min
              + " to "
              + max);
    }
    return cast.apply(value);
  }

  private static CoderMapping kv(Coder<?> coder, CoderMapping key, CoderMapping value) {
    RowType type =
        RowType.of(
            new Field("key", key.type(), key.nullable()),
            new Field("value", value.type(), value.nullable()));
    return new CoderMapping(
        coder,
        type,
        false,
        v -> {
          KV<?, ?> kv = (KV<?, ?>) v;
          return fields(key.toModel(kv.getKey()), value.toModel(kv.getValue()));
        },
        null);
  }

  private static CoderMapping map(Coder<?> coder, CoderMapping key, CoderMapping value) {
    return new CoderMapping(
        coder,
        new MapType(key.type(), value.type()),
        false,
        v -> mapOf((Map<?, ?>) v, key, value),
        null);
  }

  private static CoderMapping schema(SchemaCoder<Object> coder) {
    SchemaTypes.RowMapping row;
    try {
      row = SchemaTypes.row(coder.getSchema());
    } catch (SchemaTypes.UnsupportedSchemaException e) {
      // A schema type this mapping does not know (a newer Beam): keep the value, as bytes.
      return null;
    }
    // RowCoder's function is the identity; a POJO's SchemaCoder turns the object into its Row.
    var toRow = coder.getToRowFunction();
    return new CoderMapping(coder, row.type(), false, v -> row.toModel(toRow.apply(v)), null);
  }

  static List<Object> listOf(Iterable<?> elements, CoderMapping element) {
    List<Object> out = new ArrayList<>();
    for (Object e : elements) {
      out.add(element.toModel(e));
    }
    return Collections.unmodifiableList(out);
  }

  static Map<Object, Object> mapOf(Map<?, ?> map, CoderMapping key, CoderMapping value) {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() == null) {
        throw new IllegalArgumentException(
            "a map of "
                + key.coder()
                + " keys holds a null key, which a TSS map column cannot store; avoid null map"
                + " keys in exported state");
      }
      out.put(key.toModel(e.getKey()), value.toModel(e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  /** A row value: field values in field order, {@code null}s allowed. */
  static List<Object> fields(Object... values) {
    return Collections.unmodifiableList(Arrays.asList(values));
  }
}
