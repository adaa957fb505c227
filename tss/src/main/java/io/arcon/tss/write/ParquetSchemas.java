package io.arcon.tss.write;

import static org.apache.parquet.schema.LogicalTypeAnnotation.listType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.mapType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.stringType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.timestampType;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateSchema;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Maps {@link FieldType}s to Parquet types.
 *
 * <ul>
 *   <li>STRING → {@code BINARY (STRING)}; BYTES → {@code BINARY}; INT32, INT64, FLOAT, DOUBLE,
 *       BOOLEAN → the same physical type; TIMESTAMP → {@code INT64 TIMESTAMP(MICROS, UTC)}.
 *   <li>ROW → a group with one field per row field ({@code required} when NOT NULL).
 *   <li>LIST → the standard 3-level {@code LIST}: {@code group (LIST) { repeated group list {
 *       optional element; } }}.
 *   <li>MAP → {@code group (MAP) { repeated group key_value { required key; optional value; } }}.
 *   <li>OPAQUE → {@code group { required binary bytes; optional binary readable (STRING); }}.
 * </ul>
 */
public final class ParquetSchemas {
  private ParquetSchemas() {}

  /**
   * The schema of a version file: {@code key, window_start, window_end, value, updated_at, version}
   * and, for a DIFF file, {@code op} after {@code version}.
   */
  public static MessageType fileSchema(StateSchema schema, boolean diff) {
    Types.MessageTypeBuilder b = Types.buildMessage();
    b.addField(toParquet(Columns.KEY, schema.keyType(), Repetition.OPTIONAL));
    b.addField(timestamp(Columns.WINDOW_START, Repetition.OPTIONAL));
    b.addField(timestamp(Columns.WINDOW_END, Repetition.OPTIONAL));
    b.addField(toParquet(Columns.VALUE, schema.valueType(), Repetition.OPTIONAL));
    b.addField(timestamp(Columns.UPDATED_AT, Repetition.REQUIRED));
    b.addField(timestamp(Columns.VERSION, Repetition.REQUIRED));
    if (diff) {
      b.addField(
          Types.primitive(PrimitiveTypeName.BINARY, Repetition.REQUIRED)
              .as(stringType())
              .named(Columns.OP));
    }
    return b.named("tss_state");
  }

  /** The Parquet type of a field named {@code name} of type {@code type}. */
  public static Type toParquet(String name, FieldType type, Repetition repetition) {
    if (type instanceof PrimitiveType p) {
      switch (p) {
        case STRING:
          return Types.primitive(PrimitiveTypeName.BINARY, repetition).as(stringType()).named(name);
        case BYTES:
          return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
        case INT32:
          return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
        case INT64:
          return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
        case FLOAT:
          return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
        case DOUBLE:
          return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
        case BOOLEAN:
          return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
        case TIMESTAMP:
          return timestamp(name, repetition);
        default:
          throw new IllegalStateException("Unmapped primitive type " + p);
      }
    }
    if (type instanceof OpaqueType) {
      return Types.buildGroup(repetition)
          .addField(
              Types.primitive(PrimitiveTypeName.BINARY, Repetition.REQUIRED)
                  .named(Columns.OPAQUE_BYTES))
          .addField(
              Types.primitive(PrimitiveTypeName.BINARY, Repetition.OPTIONAL)
                  .as(stringType())
                  .named(Columns.OPAQUE_READABLE))
          .named(name);
    }
    if (type instanceof ListType l) {
      return Types.buildGroup(repetition)
          .as(listType())
          .addField(
              Types.buildGroup(Repetition.REPEATED)
                  .addField(toParquet("element", l.element(), Repetition.OPTIONAL))
                  .named("list"))
          .named(name);
    }
    if (type instanceof MapType m) {
      return Types.buildGroup(repetition)
          .as(mapType())
          .addField(
              Types.buildGroup(Repetition.REPEATED)
                  .addField(toParquet("key", m.key(), Repetition.REQUIRED))
                  .addField(toParquet("value", m.value(), Repetition.OPTIONAL))
                  .named("key_value"))
          .named(name);
    }
    RowType r = (RowType) type;
    Types.GroupBuilder<org.apache.parquet.schema.GroupType> g = Types.buildGroup(repetition);
    for (Field f : r.fields()) {
      g.addField(
          toParquet(f.name(), f.type(), f.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED));
    }
    return g.named(name);
  }

  private static Type timestamp(String name, Repetition repetition) {
    return Types.primitive(PrimitiveTypeName.INT64, repetition)
        .as(timestampType(true, TimeUnit.MICROS))
        .named(name);
  }
}
