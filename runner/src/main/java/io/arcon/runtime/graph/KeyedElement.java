package io.arcon.runtime.graph;

/**
 * An element emitted keyed inside a chain, with the key bytes the next operator's state is under,
 * so the chain sets that operator's current key before it hands the element over. (Elements that
 * cross a keyed edge travel with their key bytes in a parallel array of their batch instead, see
 * {@code RuntimeMessage.EventBatch}.)
 */
public record KeyedElement(byte[] keyBytes, Object element) {}
