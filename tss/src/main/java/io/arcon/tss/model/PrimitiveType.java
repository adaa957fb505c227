package io.arcon.tss.model;

/**
 * The primitive types. Java value classes: STRING {@link String}, INT32 {@link Integer}, INT64
 * {@link Long}, FLOAT {@link Float}, DOUBLE {@link Double}, BOOLEAN {@link Boolean}, BYTES {@code
 * byte[]}, TIMESTAMP {@link java.time.Instant} (stored with microsecond precision, UTC).
 */
public enum PrimitiveType implements FieldType {
  STRING(String.class),
  INT32(Integer.class),
  INT64(Long.class),
  FLOAT(Float.class),
  DOUBLE(Double.class),
  BOOLEAN(Boolean.class),
  BYTES(byte[].class),
  TIMESTAMP(java.time.Instant.class);

  private final Class<?> javaClass;

  PrimitiveType(Class<?> javaClass) {
    this.javaClass = javaClass;
  }

  /** The Java class a value of this type must have in a {@link StateRow}. */
  public Class<?> javaClass() {
    return javaClass;
  }

  /** The type's name, as {@link #toString()}: a primitive has nothing more to show. */
  @Override
  public String describe() {
    return name();
  }
}
