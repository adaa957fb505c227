package io.arcon.tss.wire;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.proto.FieldSpec;
import io.arcon.tss.proto.ListTypeSpec;
import io.arcon.tss.proto.MapTypeSpec;
import io.arcon.tss.proto.OpaqueTypeSpec;
import io.arcon.tss.proto.RowTypeSpec;
import io.arcon.tss.proto.TypeSpec;
import java.util.ArrayList;
import java.util.List;

/** The model's {@link FieldType} <-> its protobuf mirror {@link TypeSpec}. */
public final class TypeSpecs {
  private TypeSpecs() {}

  public static TypeSpec toProto(FieldType type) {
    TypeSpec.Builder spec = TypeSpec.newBuilder();
    if (type instanceof PrimitiveType p) {
      spec.setPrimitive(io.arcon.tss.proto.PrimitiveType.valueOf(p.name()));
    } else if (type instanceof RowType row) {
      RowTypeSpec.Builder fields = RowTypeSpec.newBuilder();
      for (Field f : row.fields()) {
        fields.addFields(
            FieldSpec.newBuilder()
                .setName(f.name())
                .setType(toProto(f.type()))
                .setNullable(f.nullable()));
      }
      spec.setRow(fields);
    } else if (type instanceof ListType list) {
      spec.setList(ListTypeSpec.newBuilder().setElement(toProto(list.element())));
    } else if (type instanceof MapType map) {
      spec.setMap(
          MapTypeSpec.newBuilder().setKey(toProto(map.key())).setValue(toProto(map.value())));
    } else if (type instanceof OpaqueType opaque) {
      spec.setOpaque(OpaqueTypeSpec.newBuilder().setCoder(opaque.coder()));
    } else {
      throw new IllegalArgumentException("unsupported field type " + type);
    }
    return spec.build();
  }

  /**
   * @throws IllegalArgumentException if the spec is incomplete (an app sent a malformed catalog)
   */
  public static FieldType fromProto(TypeSpec spec) {
    switch (spec.getKindCase()) {
      case PRIMITIVE -> {
        io.arcon.tss.proto.PrimitiveType p = spec.getPrimitive();
        if (p == io.arcon.tss.proto.PrimitiveType.PRIMITIVE_TYPE_UNSPECIFIED
            || p == io.arcon.tss.proto.PrimitiveType.UNRECOGNIZED) {
          throw new IllegalArgumentException("type spec has no primitive type set");
        }
        return PrimitiveType.valueOf(p.name());
      }
      case ROW -> {
        List<Field> fields = new ArrayList<>();
        for (FieldSpec f : spec.getRow().getFieldsList()) {
          fields.add(new Field(f.getName(), fromProto(f.getType()), f.getNullable()));
        }
        return new RowType(fields);
      }
      case LIST -> {
        return new ListType(fromProto(spec.getList().getElement()));
      }
      case MAP -> {
        return new MapType(fromProto(spec.getMap().getKey()), fromProto(spec.getMap().getValue()));
      }
      case OPAQUE -> {
        return OpaqueType.of(spec.getOpaque().getCoder());
      }
      default ->
          throw new IllegalArgumentException(
              "type spec is empty: set one of primitive, row, list, map, opaque");
    }
  }
}
