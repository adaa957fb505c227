package io.arcon.runtime.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyGroupsTest {

  @Test
  void everyKeyGroupMapsToAValidInstanceAndRangesAreContiguous() {
    for (int p = 1; p <= KeyGroups.MAX_PARALLELISM; p++) {
      int previous = 0;
      Set<Integer> used = new HashSet<>();
      for (int g = 0; g < KeyGroups.MAX_PARALLELISM; g++) {
        int instance = KeyGroups.instanceFor(g, p);
        assertTrue(instance >= 0 && instance < p, "group " + g + " at parallelism " + p);
        assertTrue(instance >= previous, "key groups form ascending ranges");
        previous = instance;
        used.add(instance);
      }
      assertEquals(p, used.size(), "every instance owns at least one key group at p=" + p);
    }
  }

  @Test
  void keyGroupOfAKeyDoesNotDependOnParallelism() {
    byte[] key = "user-42".getBytes(StandardCharsets.UTF_8);
    int group = KeyGroups.keyGroup(java.util.Arrays.hashCode(key));
    for (int p = 1; p <= 16; p++) {
      assertEquals(KeyGroups.instanceFor(group, p), KeyGroups.instanceForKey(key, p));
    }
  }

  @Test
  void sequentialKeysSpreadOverInstances() {
    int[] counts = new int[4];
    for (int i = 0; i < 10_000; i++) {
      counts[KeyGroups.instanceForKey(Integer.toString(i).getBytes(StandardCharsets.UTF_8), 4)]++;
    }
    for (int c : counts) {
      assertTrue(
          c > 1500, "instances get a fair share of keys: " + java.util.Arrays.toString(counts));
    }
  }
}
