package io.arcon.runtime.graph;

/**
 * An element that crossed a keyed edge, with the key bytes the sender already computed so the
 * receiver does not encode the key a second time.
 */
public record KeyedElement(byte[] keyBytes, Object element) {}
