package io.arcon.tss.model;

import java.util.Objects;

/**
 * A named field of a {@link RowType}.
 *
 * @param name the field name; any non-empty string (names that are not identifiers are rendered
 *     back-quoted by {@link FieldType#toString()})
 * @param type the field's type
 * @param nullable whether the field may hold {@code null}
 */
public record Field(String name, FieldType type, boolean nullable) {
  public Field {
    Objects.requireNonNull(name, "field name");
    Objects.requireNonNull(type, "field type of " + name);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("A row field needs a non-empty name");
    }
  }

  /** A nullable field. */
  public static Field of(String name, FieldType type) {
    return new Field(name, type, true);
  }

  /** A field that never holds {@code null}. */
  public static Field required(String name, FieldType type) {
    return new Field(name, type, false);
  }

  @Override
  public String toString() {
    return FieldTypeParser.quoteName(name) + " " + type + (nullable ? "" : " NOT NULL");
  }

  /** {@link #toString()} with {@link FieldType#describe()} for the type. */
  public String describe() {
    return FieldTypeParser.quoteName(name) + " " + type.describe() + (nullable ? "" : " NOT NULL");
  }
}
