package io.arcon.tss.model;

import java.util.Objects;

/**
 * A map; keys are never {@code null}, values may be. Java value: {@link java.util.Map} (iteration
 * order is kept when written).
 */
public record MapType(FieldType key, FieldType value) implements FieldType {
  public MapType {
    Objects.requireNonNull(key, "map key type");
    Objects.requireNonNull(value, "map value type");
  }

  @Override
  public String toString() {
    return "MAP<" + key + ", " + value + ">";
  }

  @Override
  public String describe() {
    return "MAP<" + key.describe() + ", " + value.describe() + ">";
  }
}
