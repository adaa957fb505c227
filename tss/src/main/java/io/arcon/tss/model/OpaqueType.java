package io.arcon.tss.model;

import java.util.Objects;

/**
 * A value whose structure is unknown to TSS (for example a state with a custom coder). Its Java
 * value is an {@link OpaqueValue}: the coder's encoded bytes plus a readable rendering.
 *
 * <p>The type may name the coder that produced the bytes, for humans reading the catalog ({@code
 * DESCRIBE APP}); two opaque types are the same type whatever coder they name, because the stored
 * columns (bytes + readable text) are the same.
 */
public final class OpaqueType implements FieldType {
  static final OpaqueType INSTANCE = new OpaqueType("");

  private final String coder;

  private OpaqueType(String coder) {
    this.coder = coder;
  }

  /** The opaque type that names no coder; same as {@link FieldType#OPAQUE}. */
  public static OpaqueType instance() {
    return INSTANCE;
  }

  /** An opaque type whose bytes were produced by {@code coder} (a description, e.g. its class). */
  public static OpaqueType of(String coder) {
    Objects.requireNonNull(coder, "coder");
    return coder.isEmpty() ? INSTANCE : new OpaqueType(coder);
  }

  /** The coder that produced the bytes, or "" when unknown. */
  public String coder() {
    return coder;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpaqueType;
  }

  @Override
  public int hashCode() {
    return OpaqueType.class.hashCode();
  }

  /** {@code OPAQUE} (the parseable type name); {@link #describe()} adds the coder. */
  @Override
  public String toString() {
    return "OPAQUE";
  }

  /** {@code OPAQUE} followed by the coder in parentheses when one is known. */
  @Override
  public String describe() {
    return coder.isEmpty() ? "OPAQUE" : "OPAQUE(" + coder + ")";
  }
}
