package io.arcon.runner.state;

import org.apache.beam.runners.core.StateNamespace;

/**
 * Builds timer identities, {@code lp(encoded key) lp(namespace.stringKey()) lp(timerFamilyId)
 * lp(timerId)} ({@code lp} = 4-byte big-endian length + bytes): the row key of a timer in {@link
 * BackendTimerStore}'s tables and the tie-break of equal timestamps in every {@link TimerStore}.
 * One per store; not thread-safe.
 */
final class TimerIdentities {
  private final OrderedBytes builder = new OrderedBytes(128);
  private final NamespaceKeys namespaceKeys = new NamespaceKeys();

  byte[] of(byte[] encodedKey, StateNamespace namespace, String timerFamilyId, String timerId) {
    if (encodedKey == null) {
      throw new IllegalArgumentException(
          "A timer needs the coder-encoded key it belongs to; got null for timer " + timerId);
    }
    return builder
        .reset()
        .writeLengthPrefixed(encodedKey)
        .writeLengthPrefixed(namespaceKeys.of(namespace))
        .writeLengthPrefixed(timerFamilyId)
        .writeLengthPrefixed(timerId)
        .toByteArray();
  }

  /** The encoded key at the start of an identity. */
  static byte[] encodedKey(byte[] identity) {
    return OrderedBytes.readLengthPrefixed(identity, 0);
  }
}
