package io.arcon.tss.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.proto.TypeSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypeSpecsTest {

  @Test
  void everyFieldTypeSurvivesTheProtobufMirror() {
    FieldType nested =
        new RowType(
            List.of(
                new Field("name", FieldType.STRING, false),
                new Field("tags", new ListType(FieldType.STRING), true),
                new Field("scores", new MapType(FieldType.STRING, FieldType.DOUBLE), true),
                new Field(
                    "inner",
                    new RowType(List.of(new Field("at", FieldType.TIMESTAMP, true))),
                    true),
                new Field("blob", FieldType.BYTES, true),
                new Field("custom", FieldType.OPAQUE, true),
                new Field("n", FieldType.INT32, false),
                new Field("f", FieldType.FLOAT, false),
                new Field("b", FieldType.BOOLEAN, false),
                new Field("l", FieldType.INT64, false)));
    assertEquals(nested, TypeSpecs.fromProto(TypeSpecs.toProto(nested)));
    assertEquals(nested.toString(), TypeSpecs.fromProto(TypeSpecs.toProto(nested)).toString());
  }

  @Test
  void anEmptyTypeSpecIsRefused() {
    assertEquals(
        "type spec is empty: set one of primitive, row, list, map, opaque",
        assertThrows(
                IllegalArgumentException.class,
                () -> TypeSpecs.fromProto(TypeSpec.getDefaultInstance()))
            .getMessage());
  }
}
