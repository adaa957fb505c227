package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.heap.HeapStateBackend;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TableRegistry} on its own, over real heap tables: the engines' conformance suites check it
 * again through each engine.
 */
class TableRegistryTest {
  /** Where the registry under test gets its tables from; it keeps tables of its own. */
  private final HeapStateBackend heap = new HeapStateBackend();

  private final List<String> created = new ArrayList<>();
  private final TableRegistry<StateTable> registry =
      new TableRegistry<>(
          name -> {
            created.add(name);
            return heap.table(name);
          });

  @AfterEach
  void closeHeap() {
    heap.close();
  }

  @Test
  void createsEachTableOnceAndListsThemInCreationOrder() {
    StateTable b = registry.getOrCreate("b");
    StateTable a = registry.getOrCreate("a");
    assertSame(b, registry.getOrCreate("b"));
    assertSame(a, registry.getOrCreate("a"));
    assertEquals(List.of("b", "a"), created, "the factory runs once per name");
    assertEquals(List.of("b", "a"), List.copyOf(registry.names()));
    List<StateTable> iterated = new ArrayList<>();
    registry.forEach(iterated::add);
    assertEquals(List.of(b, a), iterated);
    assertEquals(2, registry.size());
  }

  @Test
  void namesAreACopy() {
    registry.getOrCreate("a");
    Collection<String> names = registry.names();
    registry.getOrCreate("b");
    assertEquals(List.of("a"), List.copyOf(names));
    assertThrows(UnsupportedOperationException.class, () -> names.add("c"));
  }

  @Test
  void refusesEmptyNamesBeforeCreatingAnything() {
    for (String bad : new String[] {"", null}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> registry.getOrCreate(bad));
      assertEquals("A state table needs a non-empty name", e.getMessage());
    }
    assertTrue(created.isEmpty());
    assertEquals(0, registry.size());
  }

  @Test
  void aFailedCreationRegistersNothing() {
    TableRegistry<StateTable> failing =
        new TableRegistry<>(
            name -> {
              throw new StateBackendException("no room for " + name);
            });
    StateBackendException e =
        assertThrows(StateBackendException.class, () -> failing.getOrCreate("t"));
    assertEquals("no room for t", e.getMessage());
    assertTrue(failing.names().isEmpty());
  }

  @Test
  void addedTablesJoinTheRegistryUnderTheirName() {
    StateTable a = registry.getOrCreate("a");
    StateTable restored = heap.table("restored");
    registry.add(restored);
    assertSame(restored, registry.getOrCreate("restored"));
    assertEquals(List.of("a"), created, "an added table is not created again");
    assertEquals(List.of("a", "restored"), List.copyOf(registry.names()));
    HeapStateBackend other = new HeapStateBackend();
    try {
      StateTable replacement = other.table("a");
      registry.add(replacement);
      assertSame(replacement, registry.getOrCreate("a"), "a table added under a name replaces");
      assertEquals(List.of("a", "restored"), List.copyOf(registry.names()));
      assertTrue(a != replacement);
    } finally {
      other.close();
    }
  }

  @Test
  void sizeIsTheSumOfTheTables() {
    StateTable a = registry.getOrCreate("a");
    StateTable b = registry.getOrCreate("b");
    assertEquals(0, registry.approximateSizeBytes());
    a.put(new byte[] {1}, new byte[100]);
    b.put(new byte[] {2}, new byte[300]);
    b.append(new byte[] {3}, new byte[50]);
    long expected = a.approximateSizeBytes() + b.approximateSizeBytes();
    assertTrue(expected > 450, "both tables hold their bytes: " + expected);
    assertEquals(expected, registry.approximateSizeBytes());
  }

  @Test
  void clearForgetsEveryTable() {
    registry.getOrCreate("a");
    registry.clear();
    assertEquals(0, registry.size());
    assertTrue(registry.names().isEmpty());
    registry.getOrCreate("a");
    assertEquals(List.of("a", "a"), created, "a cleared name is created anew");
  }
}
