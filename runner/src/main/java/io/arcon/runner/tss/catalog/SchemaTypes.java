package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.RowType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.joda.time.ReadableInstant;

/**
 * Maps a Beam {@link Schema} to a TSS {@link RowType}, recursively, and a {@link Row} of it to the
 * row's model value (one value per field, in field order).
 *
 * <ul>
 *   <li>BYTE, INT16, INT32 → INT32; INT64 → INT64; FLOAT, DOUBLE, STRING, BOOLEAN, BYTES → the
 *       same; DATETIME → TIMESTAMP.
 *   <li>DECIMAL → STRING, the plain decimal notation ({@link BigDecimal#toPlainString()}): a
 *       decimal is exact by design (money, quantities), and DOUBLE would silently round it; the
 *       string keeps every digit and SQL can {@code CAST} it to a DECIMAL of the precision it needs
 *       (a Beam DECIMAL has no fixed precision, so no one Parquet DECIMAL fits all values).
 *   <li>ARRAY, ITERABLE → LIST; MAP → MAP; ROW → ROW; a nullable schema field → a nullable field.
 *   <li>A logical type → its base type, its values converted with {@link
 *       Schema.LogicalType#toBaseType}.
 * </ul>
 *
 * <p>Field names are kept as the schema spells them: the TSS model and the Parquet writer accept
 * any non-empty field name, so renaming would only make the columns disagree with the user's type.
 */
final class SchemaTypes {
  private SchemaTypes() {}

  /** A schema's row type and the conversion of its rows. */
  record RowMapping(RowType type, Function<Row, List<Object>> converter) {
    List<Object> toModel(Row row) {
      return converter.apply(row);
    }
  }

  /** A schema type this mapping does not know; the caller exports such values as opaque bytes. */
  static final class UnsupportedSchemaException extends RuntimeException {
    UnsupportedSchemaException(String message) {
      super(message);
    }
  }

  /**
   * @throws UnsupportedSchemaException if the schema holds a type this mapping does not know
   */
  static RowMapping row(Schema schema) {
    if (schema.getFieldCount() == 0) {
      throw new UnsupportedSchemaException("schema without fields");
    }
    List<Field> fields = new ArrayList<>();
    List<Function<Object, Object>> converters = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      Mapped m = map(f.getType());
      fields.add(new Field(f.getName(), m.type(), f.getType().getNullable()));
      converters.add(m.converter());
    }
    RowType type = new RowType(fields);
    return new RowMapping(
        type,
        row -> {
          List<Object> values = new ArrayList<>(converters.size());
          for (int i = 0; i < converters.size(); i++) {
            Object v = row.getValue(i);
            values.add(v == null ? null : converters.get(i).apply(v));
          }
          return Collections.unmodifiableList(values);
        });
  }

  private record Mapped(FieldType type, Function<Object, Object> converter) {}

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Mapped map(Schema.FieldType t) {
    switch (t.getTypeName()) {
      case BYTE:
      case INT16:
        return new Mapped(FieldType.INT32, v -> ((Number) v).intValue());
      case INT32:
        return new Mapped(FieldType.INT32, v -> v);
      case INT64:
        return new Mapped(FieldType.INT64, v -> v);
      case FLOAT:
        return new Mapped(FieldType.FLOAT, v -> v);
      case DOUBLE:
        return new Mapped(FieldType.DOUBLE, v -> v);
      case STRING:
        return new Mapped(FieldType.STRING, v -> v);
      case BOOLEAN:
        return new Mapped(FieldType.BOOLEAN, v -> v);
      case BYTES:
        return new Mapped(FieldType.BYTES, SchemaTypes::bytes);
      case DATETIME:
        return new Mapped(FieldType.TIMESTAMP, v -> Times.toJava((ReadableInstant) v));
      case DECIMAL:
        return new Mapped(FieldType.STRING, v -> ((BigDecimal) v).toPlainString());
      case ARRAY:
      case ITERABLE:
        {
          Schema.FieldType elementType = t.getCollectionElementType();
          Mapped element = map(elementType);
          return new Mapped(
              new ListType(element.type()),
              v -> {
                List<Object> out = new ArrayList<>();
                for (Object e : (Iterable<Object>) v) {
                  out.add(e == null ? null : element.converter().apply(e));
                }
                return Collections.unmodifiableList(out);
              });
        }
      case MAP:
        {
          Mapped key = map(t.getMapKeyType());
          Mapped value = map(t.getMapValueType());
          return new Mapped(
              new MapType(key.type(), value.type()),
              v -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                  if (e.getKey() == null) {
                    throw new IllegalArgumentException(
                        "a schema map field holds a null key, which a TSS map column cannot"
                            + " store; avoid null map keys in exported state");
                  }
                  out.put(
                      key.converter().apply(e.getKey()),
                      e.getValue() == null ? null : value.converter().apply(e.getValue()));
                }
                return Collections.unmodifiableMap(out);
              });
        }
      case ROW:
        {
          RowMapping nested = row(t.getRowSchema());
          return new Mapped(nested.type(), v -> nested.toModel((Row) v));
        }
      case LOGICAL_TYPE:
        {
          Schema.LogicalType logical = t.getLogicalType();
          Mapped base = map(logical.getBaseType());
          return new Mapped(
              base.type(),
              v -> {
                Object baseValue = logical.toBaseType(v);
                return baseValue == null ? null : base.converter().apply(baseValue);
              });
        }
      default:
        throw new UnsupportedSchemaException("schema type " + t.getTypeName());
    }
  }

  private static byte[] bytes(Object v) {
    if (v instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] out = new byte[copy.remaining()];
      copy.get(out);
      return out;
    }
    return (byte[]) v;
  }
}
