package io.arcon.tss.model;

/**
 * A value whose structure is unknown to TSS (for example a state with a custom coder). Its Java
 * value is an {@link OpaqueValue}: the coder's encoded bytes plus a readable rendering.
 */
public final class OpaqueType implements FieldType {
  static final OpaqueType INSTANCE = new OpaqueType();

  private OpaqueType() {}

  /** The single opaque type; same as {@link FieldType#OPAQUE}. */
  public static OpaqueType instance() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "OPAQUE";
  }
}
