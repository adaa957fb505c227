package io.arcon.runner.state;

import java.nio.charset.StandardCharsets;

/**
 * The decoded address part of a row key of {@link BackendStateInternals#STATE_TABLE} or {@link
 * BackendStateInternals#HOLD_TABLE}, for readers that walk a backend's tables without Beam's
 * StateTags (state extraction, debugging).
 *
 * @param encodedKey the coder-encoded key
 * @param namespace the {@code StateNamespace.stringKey()} of the cell
 * @param stateId the state id (the {@code @StateId} for user state)
 * @param suffixOffset where the kind-specific suffix ({@code 0x01} + element, map key or timestamp)
 *     starts in the row key; equal to the key's length for a cell's own row
 */
public record StateAddress(byte[] encodedKey, String namespace, String stateId, int suffixOffset) {

  /** Decodes the address at the start of {@code rowKey}. */
  public static StateAddress parse(byte[] rowKey) {
    try {
      byte[] key = OrderedBytes.readLengthPrefixed(rowKey, 0);
      int pos = OrderedBytes.skipLengthPrefixed(rowKey, 0);
      String namespace =
          new String(OrderedBytes.readLengthPrefixed(rowKey, pos), StandardCharsets.UTF_8);
      pos = OrderedBytes.skipLengthPrefixed(rowKey, pos);
      String stateId =
          new String(OrderedBytes.readLengthPrefixed(rowKey, pos), StandardCharsets.UTF_8);
      pos = OrderedBytes.skipLengthPrefixed(rowKey, pos);
      return new StateAddress(key, namespace, stateId, pos);
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "Not a state row key (expected length-prefixed key, namespace and state id): "
              + rowKey.length
              + " bytes",
          e);
    }
  }

  /** The event time (epoch millis) recorded in a stored value or list element as updated_at. */
  public static long updatedAtMillis(byte[] storedValue) {
    if (storedValue.length < StateCoding.STAMP_BYTES) {
      throw new IllegalArgumentException(
          "A stored state value starts with an 8-byte updated_at; got "
              + storedValue.length
              + " bytes");
    }
    return StateCoding.updatedAt(storedValue);
  }
}
