package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.FieldType;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;

/**
 * How the keys of a stateful transform (the key of its {@code KvCoder} input) are exported, and,
 * for an {@code ON KEY} filter, how a key given as a model value (as {@link
 * io.arcon.tss.model.KeyLiterals#parse} reads it) becomes the Beam key whose state to read.
 */
public final class KeyMapping {
  private final CoderMapping mapping;

  private KeyMapping(CoderMapping mapping) {
    this.mapping = mapping;
  }

  /**
   * The key mapping of a transform whose input is {@code KV<K, ?>} with key coder {@code keyCoder}.
   */
  public static KeyMapping of(Coder<?> keyCoder) {
    Objects.requireNonNull(keyCoder, "key coder");
    return new KeyMapping(CoderTypes.of(keyCoder));
  }

  public Coder<?> coder() {
    return mapping.coder();
  }

  /** The exported key type. */
  public FieldType type() {
    return mapping.type();
  }

  /** Converts a decoded Beam key to its model value. */
  public Object toModel(Object beamKey) {
    return mapping.toModel(beamKey);
  }

  /** Whether {@link #toBeam} can give the Beam key of a model key (primitive key types). */
  public boolean invertible() {
    return mapping.invertible();
  }

  /**
   * The Beam key whose model value is {@code modelKey}, or {@code null} when the key type has no
   * unambiguous inverse (composite and opaque keys: filter those by comparing {@link #toModel}
   * results instead).
   *
   * @throws IllegalArgumentException if no Beam key of this coder has that model value (e.g. a
   *     timestamp with microseconds, or 70000 for a {@code short} key)
   */
  public Object toBeam(Object modelKey) {
    return mapping.invertible() ? mapping.toBeam(modelKey) : null;
  }

  @Override
  public String toString() {
    return "key " + mapping;
  }
}
