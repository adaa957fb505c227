package io.arcon.runtime.graph;

import java.io.Serializable;

/**
 * Gives the structural (encoded) key bytes of an element crossing a {@link EdgeKind#KEYED} edge.
 */
@FunctionalInterface
public interface KeyExtractor extends Serializable {
  byte[] keyBytes(Object element) throws Exception;
}
