package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class ArrowVersionWriterTest {

  /** Rows read back from a stream, plus the per-row op and version columns and batch count. */
  record ReadBack(List<StateRow> rows, List<String> ops, List<Instant> versions, int batches) {}

  @Test
  void nestedRowsRoundTripThroughArrowStreamReaderAcrossBatches() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // A batch size of 3 splits the 4 fixture rows over two record batches.
    long n =
        new ArrowVersionWriter(3)
            .writeVersion(out, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    assertEquals(4, n);
    ReadBack back = read(out.toByteArray(), Fixtures.SCHEMA);
    assertEquals(2, back.batches());
    ParquetVersionWriterTest.assertRowsEqual(Fixtures.rows(), back.rows());
    assertEquals(
        List.of(Fixtures.VERSION, Fixtures.VERSION, Fixtures.VERSION, Fixtures.VERSION),
        back.versions());
  }

  @Test
  void schemaUsesArrowNestedTypes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new ArrowVersionWriter().writeVersion(out, Fixtures.SCHEMA, List.of(), Fixtures.VERSION);
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      org.apache.arrow.vector.types.pojo.Field value = root.getSchema().findField("value");
      assertEquals(ArrowType.Struct.INSTANCE, value.getType());
      assertEquals(
          new ArrowType.Map(false), value.getChildren().get(9).getType(), "scores is a Map");
      assertEquals(ArrowType.List.INSTANCE, value.getChildren().get(8).getType(), "tags is a List");
      assertEquals(
          "Timestamp(MICROSECOND, UTC)",
          root.getSchema().findField("version").getType().toString());
      assertEquals(
          Fixtures.VALUE.toString(),
          root.getSchema().getCustomMetadata().get("arcon.tss.value_type"));
      assertTrue(reader.loadNextBatch());
      assertEquals(0, root.getRowCount());
      assertFalse(reader.loadNextBatch());
    }
  }

  @Test
  void diffStreamCarriesOpColumn() throws IOException {
    StateSchema schema = new StateSchema(FieldType.INT64, FieldType.STRING);
    List<StateChange> changes =
        List.of(
            new StateChange(ChangeOp.INSERT, new StateRow(1L, null, "a", Instant.EPOCH)),
            new StateChange(ChangeOp.DELETE, new StateRow(2L, null, null, Instant.EPOCH)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(2, new ArrowVersionWriter().writeDiff(out, schema, changes, Fixtures.VERSION));
    ReadBack back = read(out.toByteArray(), schema);
    assertEquals(List.of("insert", "delete"), back.ops());
    assertEquals(null, back.rows().get(1).value());
  }

  @Test
  void badValueIsRefusedWithItsRowNumber() {
    StateSchema schema = new StateSchema(FieldType.INT64, FieldType.STRING);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ArrowVersionWriter()
                    .writeVersion(
                        new ByteArrayOutputStream(),
                        schema,
                        List.of(new StateRow("not a long", null, "a", Instant.EPOCH)),
                        Fixtures.VERSION));
    assertEquals(
        "Row 0 does not fit the state schema: key has type INT64 so its Java value must be a"
            + " Long, but it is a java.lang.String",
        e.getMessage());
  }

  static ReadBack read(byte[] bytes, StateSchema schema) throws IOException {
    List<StateRow> rows = new ArrayList<>();
    List<String> ops = new ArrayList<>();
    List<Instant> versions = new ArrayList<>();
    int batches = 0;
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        batches++;
        List<FieldVector> v = root.getFieldVectors();
        for (int i = 0; i < root.getRowCount(); i++) {
          Instant start = (Instant) toJava(v.get(1), i, FieldType.TIMESTAMP);
          Instant end = (Instant) toJava(v.get(2), i, FieldType.TIMESTAMP);
          rows.add(
              new StateRow(
                  toJava(v.get(0), i, schema.keyType()),
                  start == null ? null : new WindowBounds(start, end),
                  toJava(v.get(3), i, schema.valueType()),
                  (Instant) toJava(v.get(4), i, FieldType.TIMESTAMP)));
          versions.add((Instant) toJava(v.get(5), i, FieldType.TIMESTAMP));
          if (v.size() > 6) {
            ops.add(new String(((VarCharVector) v.get(6)).get(i)));
          }
        }
      }
    }
    return new ReadBack(rows, ops, versions, batches);
  }

  /** Rebuilds a model value from an Arrow vector cell (the inverse of the writer's mapping). */
  static Object toJava(ValueVector vector, int i, FieldType type) {
    if (vector.isNull(i)) {
      return null;
    }
    if (type instanceof PrimitiveType p) {
      return switch (p) {
        case STRING ->
            new String(((VarCharVector) vector).get(i), java.nio.charset.StandardCharsets.UTF_8);
        case BYTES -> ((VarBinaryVector) vector).get(i);
        case INT32 -> ((IntVector) vector).get(i);
        case INT64 -> ((BigIntVector) vector).get(i);
        case FLOAT -> ((Float4Vector) vector).get(i);
        case DOUBLE -> ((Float8Vector) vector).get(i);
        case BOOLEAN -> ((BitVector) vector).get(i) == 1;
        case TIMESTAMP -> Micros.toInstant(((TimeStampMicroTZVector) vector).get(i));
      };
    }
    if (type instanceof OpaqueType) {
      StructVector s = (StructVector) vector;
      return new OpaqueValue(
          (byte[]) toJava(s.getChild("bytes"), i, FieldType.BYTES),
          (String) toJava(s.getChild("readable"), i, FieldType.STRING));
    }
    if (type instanceof MapType m) {
      MapVector map = (MapVector) vector;
      StructVector entries = (StructVector) map.getDataVector();
      Map<Object, Object> result = new LinkedHashMap<>();
      for (int j = map.getElementStartIndex(i); j < map.getElementEndIndex(i); j++) {
        result.put(
            toJava(entries.getChild("key"), j, m.key()),
            toJava(entries.getChild("value"), j, m.value()));
      }
      return result;
    }
    if (type instanceof ListType l) {
      ListVector list = (ListVector) vector;
      List<Object> result = new ArrayList<>();
      for (int j = list.getElementStartIndex(i); j < list.getElementEndIndex(i); j++) {
        result.add(toJava(list.getDataVector(), j, l.element()));
      }
      return result;
    }
    RowType r = (RowType) type;
    StructVector s = (StructVector) vector;
    List<Object> result = new ArrayList<>();
    for (Field f : r.fields()) {
      result.add(toJava(s.getChild(f.name()), i, f.type()));
    }
    return result;
  }
}
