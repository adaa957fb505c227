package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.FieldType;
import java.util.Objects;
import java.util.function.Function;
import org.apache.beam.sdk.coders.Coder;

/**
 * How values of one Beam {@link Coder} are exported: their TSS {@link FieldType}, whether they may
 * be {@code null}, the conversion of a decoded Beam value into the model value {@link
 * io.arcon.tss.model.Values#check} accepts for that type, and, where one model value stands for
 * exactly one Beam value (primitives), the conversion back.
 *
 * <p>Built by {@link CoderTypes#of(Coder)}.
 */
public final class CoderMapping {
  private final Coder<?> coder;
  private final FieldType type;
  private final boolean nullable;
  private final Function<Object, Object> toModel;
  private final Function<Object, Object> toBeam;

  CoderMapping(
      Coder<?> coder,
      FieldType type,
      boolean nullable,
      Function<Object, Object> toModel,
      Function<Object, Object> toBeam) {
    this.coder = Objects.requireNonNull(coder, "coder");
    this.type = Objects.requireNonNull(type, "type");
    this.nullable = nullable;
    this.toModel = Objects.requireNonNull(toModel, "toModel");
    this.toBeam = toBeam;
  }

  /** The same mapping, but allowing {@code null} (for {@code NullableCoder}). */
  CoderMapping asNullable(Coder<?> nullableCoder) {
    return new CoderMapping(nullableCoder, type, true, toModel, toBeam);
  }

  /** The coder whose values this maps. */
  public Coder<?> coder() {
    return coder;
  }

  /** The exported type of the coder's values. */
  public FieldType type() {
    return type;
  }

  /** Whether the coder can encode {@code null} (only {@code NullableCoder} and schema fields). */
  public boolean nullable() {
    return nullable;
  }

  /** Converts a decoded value of the coder into the model value of {@link #type()}. */
  public Object toModel(Object beamValue) {
    return beamValue == null ? null : toModel.apply(beamValue);
  }

  /** Whether {@link #toBeam} can turn a model value back into the one Beam value it came from. */
  public boolean invertible() {
    return toBeam != null;
  }

  /**
   * Converts a model value of {@link #type()} back into the Beam value of the coder.
   *
   * @throws UnsupportedOperationException if the mapping is not {@link #invertible()}
   * @throws IllegalArgumentException if no value of the coder maps to {@code modelValue} (for
   *     example 70000 for a {@code BigEndianShortCoder})
   */
  public Object toBeam(Object modelValue) {
    if (toBeam == null) {
      throw new UnsupportedOperationException(
          "values of "
              + coder
              + " (exported as "
              + type
              + ") cannot be turned back into Beam values; only primitive types can");
    }
    return modelValue == null ? null : toBeam.apply(modelValue);
  }

  @Override
  public String toString() {
    return coder + " -> " + type + (nullable ? "" : " NOT NULL");
  }
}
