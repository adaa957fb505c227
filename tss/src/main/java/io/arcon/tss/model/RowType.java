package io.arcon.tss.model;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A nested row (struct). Its Java value is a {@link List} holding one value per field, in field
 * order.
 */
public record RowType(List<Field> fields) implements FieldType {
  public RowType {
    Objects.requireNonNull(fields, "fields");
    fields = List.copyOf(fields);
    if (fields.isEmpty()) {
      // Parquet cannot store an empty group, so refuse it where the type is built.
      throw new IllegalArgumentException("A ROW type needs at least one field");
    }
    Set<String> seen = new HashSet<>();
    for (Field f : fields) {
      if (!seen.add(f.name())) {
        throw new IllegalArgumentException(
            "ROW type has two fields named '" + f.name() + "'; field names must be unique");
      }
    }
  }

  public static RowType of(Field... fields) {
    return new RowType(List.of(fields));
  }

  @Override
  public String toString() {
    return fields.stream().map(Field::toString).collect(Collectors.joining(", ", "ROW<", ">"));
  }

  @Override
  public String describe() {
    return fields.stream().map(Field::describe).collect(Collectors.joining(", ", "ROW<", ">"));
  }
}
