package io.arcon.runtime.graph;

/**
 * Maps keys to key groups and key groups to instances. A key group is the unit of state that can
 * move between instances when parallelism changes, so the mapping key -> group never depends on the
 * parallelism.
 */
public final class KeyGroups {
  /** Number of key groups; the upper bound of a keyed vertex's parallelism. */
  public static final int MAX_PARALLELISM = 128;

  private KeyGroups() {}

  /** Key group of a key whose structural bytes hash to {@code keyHash}. */
  public static int keyGroup(int keyHash) {
    // Murmur3 finalizer: spreads hashes of short/sequential keys over the groups.
    int h = keyHash;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return (h & 0x7fffffff) % MAX_PARALLELISM;
  }

  /** The instance owning a key group, ranges of groups per instance as Flink does. */
  public static int instanceFor(int keyGroup, int parallelism) {
    return keyGroup * parallelism / MAX_PARALLELISM;
  }

  public static int instanceForKey(byte[] structuralKey, int parallelism) {
    return instanceFor(keyGroup(java.util.Arrays.hashCode(structuralKey)), parallelism);
  }
}
