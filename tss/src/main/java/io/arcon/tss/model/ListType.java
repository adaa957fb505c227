package io.arcon.tss.model;

import java.util.Objects;

/**
 * A list of elements of one type; elements may be {@code null}. Java value: {@link java.util.List}.
 */
public record ListType(FieldType element) implements FieldType {
  public ListType {
    Objects.requireNonNull(element, "list element type");
  }

  @Override
  public String toString() {
    return "LIST<" + element + ">";
  }

  @Override
  public String describe() {
    return "LIST<" + element.describe() + ">";
  }
}
