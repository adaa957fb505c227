package io.arcon.runner.state;

import java.util.Arrays;
import org.apache.beam.runners.core.StateNamespace;

/**
 * A map from namespaces of one transform (equal as {@link NamespaceEquality} says) to values, with
 * the hash the caller computed: open addressing with linear probing over an array of hashes, so a
 * probe compares an int in a dense array and touches a namespace only when the hashes agree.
 *
 * <p>Why not a {@code HashMap}: with the windows of many keys (sessions, Nexmark's auction windows)
 * nearly every lookup is of a namespace not touched for thousands of elements, and the map's
 * bucket, node and key object were three cache misses before the namespace itself was compared (a
 * {@code HashMap.get} was a twentieth of a merging GroupByKey's time). Entries are never removed
 * one by one; the owner clears the map whole. Not thread-safe.
 */
final class NamespaceMap<V> {
  private static final int INITIAL_CAPACITY = 1024; // a power of two

  private int[] hashes = new int[INITIAL_CAPACITY];
  private StateNamespace[] namespaces = new StateNamespace[INITIAL_CAPACITY];
  private Object[] values = new Object[INITIAL_CAPACITY];
  private int size;

  int size() {
    return size;
  }

  /** The value of {@code namespace}, whose {@link NamespaceEquality#hash} is {@code hash}. */
  @SuppressWarnings("unchecked")
  V get(StateNamespace namespace, int hash) {
    int mask = namespaces.length - 1;
    for (int i = slot(hash, mask); ; i = (i + 1) & mask) {
      StateNamespace held = namespaces[i];
      if (held == null) {
        return null;
      }
      if (hashes[i] == hash && NamespaceEquality.same(held, namespace)) {
        return (V) values[i];
      }
    }
  }

  /** Sets the value of {@code namespace}, whose {@link NamespaceEquality#hash} is {@code hash}. */
  void put(StateNamespace namespace, int hash, V value) {
    if (2 * (size + 1) > namespaces.length) {
      grow();
    }
    int mask = namespaces.length - 1;
    int i = slot(hash, mask);
    while (namespaces[i] != null) {
      if (hashes[i] == hash && NamespaceEquality.same(namespaces[i], namespace)) {
        values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
    hashes[i] = hash;
    namespaces[i] = namespace;
    values[i] = value;
    size++;
  }

  /** Forgets every entry; a grown map goes back to its first size. */
  void clear() {
    if (namespaces.length > INITIAL_CAPACITY) {
      hashes = new int[INITIAL_CAPACITY];
      namespaces = new StateNamespace[INITIAL_CAPACITY];
      values = new Object[INITIAL_CAPACITY];
    } else {
      Arrays.fill(namespaces, null);
      Arrays.fill(values, null);
    }
    size = 0;
  }

  private void grow() {
    int[] oldHashes = hashes;
    StateNamespace[] oldNamespaces = namespaces;
    Object[] oldValues = values;
    int capacity = oldNamespaces.length * 2;
    hashes = new int[capacity];
    namespaces = new StateNamespace[capacity];
    values = new Object[capacity];
    int mask = capacity - 1;
    for (int old = 0; old < oldNamespaces.length; old++) {
      if (oldNamespaces[old] == null) {
        continue;
      }
      int i = slot(oldHashes[old], mask);
      while (namespaces[i] != null) {
        i = (i + 1) & mask;
      }
      hashes[i] = oldHashes[old];
      namespaces[i] = oldNamespaces[old];
      values[i] = oldValues[old];
    }
  }

  private static int slot(int hash, int mask) {
    return (hash ^ (hash >>> 16)) & mask;
  }
}
