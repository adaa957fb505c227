package io.arcon.tss.write;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Maps {@link FieldType}s to Arrow fields: STRING → Utf8, BYTES → Binary, INT32/INT64 → signed
 * Int(32/64), FLOAT/DOUBLE → FloatingPoint(SINGLE/DOUBLE), BOOLEAN → Bool, TIMESTAMP →
 * Timestamp(MICROSECOND, "UTC"), ROW → Struct, LIST → List with child {@code element}, MAP → Map
 * with {@code entries: Struct<key not null, value>}, OPAQUE → Struct{@code <bytes not null,
 * readable>}. Columns and their order match {@link ParquetSchemas#fileSchema}.
 */
public final class ArrowSchemas {
  static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");

  private ArrowSchemas() {}

  public static Schema fileSchema(StateSchema schema, boolean diff) {
    List<Field> fields = new ArrayList<>();
    fields.add(toArrow(Columns.KEY, schema.keyType(), true));
    fields.add(leaf(Columns.WINDOW_START, TIMESTAMP, true));
    fields.add(leaf(Columns.WINDOW_END, TIMESTAMP, true));
    fields.add(toArrow(Columns.VALUE, schema.valueType(), true));
    fields.add(leaf(Columns.UPDATED_AT, TIMESTAMP, false));
    fields.add(leaf(Columns.VERSION, TIMESTAMP, false));
    if (diff) {
      fields.add(leaf(Columns.OP, ArrowType.Utf8.INSTANCE, false));
    }
    return new Schema(
        fields,
        Map.of(
            StateRowWriteSupport.META_KEY_TYPE, schema.keyType().toString(),
            StateRowWriteSupport.META_VALUE_TYPE, schema.valueType().toString(),
            StateRowWriteSupport.META_DIFF, Boolean.toString(diff)));
  }

  public static Field toArrow(String name, FieldType type, boolean nullable) {
    if (type instanceof PrimitiveType p) {
      return leaf(name, primitive(p), nullable);
    }
    if (type instanceof OpaqueType) {
      return new Field(
          name,
          new org.apache.arrow.vector.types.pojo.FieldType(
              nullable, ArrowType.Struct.INSTANCE, null),
          List.of(
              leaf(Columns.OPAQUE_BYTES, ArrowType.Binary.INSTANCE, false),
              leaf(Columns.OPAQUE_READABLE, ArrowType.Utf8.INSTANCE, true)));
    }
    if (type instanceof ListType l) {
      return new Field(
          name,
          new org.apache.arrow.vector.types.pojo.FieldType(nullable, ArrowType.List.INSTANCE, null),
          List.of(toArrow("element", l.element(), true)));
    }
    if (type instanceof MapType m) {
      Field entries =
          new Field(
              "entries",
              new org.apache.arrow.vector.types.pojo.FieldType(
                  false, ArrowType.Struct.INSTANCE, null),
              List.of(toArrow("key", m.key(), false), toArrow("value", m.value(), true)));
      return new Field(
          name,
          new org.apache.arrow.vector.types.pojo.FieldType(
              nullable, new ArrowType.Map(false), null),
          List.of(entries));
    }
    RowType r = (RowType) type;
    List<Field> children = new ArrayList<>();
    for (io.arcon.tss.model.Field f : r.fields()) {
      children.add(toArrow(f.name(), f.type(), f.nullable()));
    }
    return new Field(
        name,
        new org.apache.arrow.vector.types.pojo.FieldType(nullable, ArrowType.Struct.INSTANCE, null),
        children);
  }

  private static ArrowType primitive(PrimitiveType p) {
    switch (p) {
      case STRING:
        return ArrowType.Utf8.INSTANCE;
      case BYTES:
        return ArrowType.Binary.INSTANCE;
      case INT32:
        return new ArrowType.Int(32, true);
      case INT64:
        return new ArrowType.Int(64, true);
      case FLOAT:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case BOOLEAN:
        return ArrowType.Bool.INSTANCE;
      case TIMESTAMP:
        return TIMESTAMP;
      default:
        throw new IllegalStateException("Unmapped primitive type " + p);
    }
  }

  private static Field leaf(String name, ArrowType type, boolean nullable) {
    return new Field(
        name, new org.apache.arrow.vector.types.pojo.FieldType(nullable, type, null), null);
  }
}
