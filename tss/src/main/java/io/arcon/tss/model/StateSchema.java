package io.arcon.tss.model;

import java.util.Objects;

/** The key type and the value type of one exported state. */
public record StateSchema(FieldType keyType, FieldType valueType) {
  public StateSchema {
    Objects.requireNonNull(keyType, "key type");
    Objects.requireNonNull(valueType, "value type");
  }
}
