package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.ListFraming;
import io.arcon.state.StateEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values are overwritten in place, so no array the table shares with callers may change. */
class HeapStateTableTest {

  @Test
  void inPlaceOverwritesChangeNoCallerArray() {
    HeapStateTable table = new HeapStateTable("t");
    byte[] shared = {1, 2, 3};
    table.put(new byte[] {'a'}, shared);
    table.put(new byte[] {'b'}, shared);
    byte[] read = table.get(new byte[] {'a'});
    byte[] scanned;
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      scanned = it.next().value();
    }

    table.put(new byte[] {'a'}, new byte[] {7, 8, 9});

    assertArrayEquals(new byte[] {1, 2, 3}, shared);
    assertArrayEquals(new byte[] {1, 2, 3}, read);
    assertArrayEquals(new byte[] {1, 2, 3}, scanned);
    assertArrayEquals(new byte[] {1, 2, 3}, table.get(new byte[] {'b'}));
    assertArrayEquals(new byte[] {7, 8, 9}, table.get(new byte[] {'a'}));
  }

  @Test
  void valuesOfAnotherLengthReplaceTheStoredOne() {
    HeapStateTable table = new HeapStateTable("t");
    table.put(new byte[] {'a'}, new byte[] {1});
    table.put(new byte[] {'a'}, new byte[] {1, 2});
    table.get(new byte[] {'a'})[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, table.get(new byte[] {'a'}));
    table.append(new byte[] {'a'}, new byte[] {3});
    table.put(new byte[] {'a'}, new byte[] {4, 5});
    assertArrayEquals(new byte[] {4, 5}, table.get(new byte[] {'a'}));
  }

  /**
   * Scans read a list from the ordered index's entry, not from the hash map: the entry must follow
   * every change of what a key holds (a plain value adopted as a list by an append, a list replaced
   * by a put, a restore), with the order kept lazily and eagerly, also in a scan that is open.
   */
  @Test
  void scansSeeEveryChangeOfWhatAKeyHolds() {
    for (boolean eager : new boolean[] {false, true}) {
      HeapStateTable table = new HeapStateTable("t");
      if (eager) {
        table.keepKeyOrder();
      }
      byte[] a = {'a'};
      byte[] b = {'b'};
      table.put(a, ListFraming.frame(new byte[] {1}));
      table.append(b, new byte[] {2});
      assertEquals(List.of("a=[1]", "b=[2]"), scan(table)); // builds the order

      table.append(a, new byte[] {3}); // adopts the plain framed value as a list
      table.append(b, new byte[] {4});
      assertEquals(List.of("a=[1, 3]", "b=[2, 4]"), scan(table));

      table.put(b, ListFraming.frame(new byte[] {5})); // a list replaced by a plain value
      assertEquals(List.of("a=[1, 3]", "b=[5]"), scan(table));
      table.append(b, new byte[] {6});
      assertEquals(List.of("a=[1, 3]", "b=[5, 6]"), scan(table));

      try (CloseableIterator<StateEntry> it = table.iterator()) {
        it.hasNext();
        table.put(b, ListFraming.frame(new byte[] {7})); // while the scan is open
        assertEquals("a=[1, 3]", describe(it.next()));
        assertEquals("b=[7]", describe(it.next()));
      }
      table.delete(a);
      table.append(a, new byte[] {8});
      assertEquals(List.of("a=[8]", "b=[7]"), scan(table));
    }
  }

  private static List<String> scan(HeapStateTable table) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      while (it.hasNext()) {
        out.add(describe(it.next()));
      }
    }
    return out;
  }

  private static String describe(StateEntry entry) {
    List<Integer> elements = new ArrayList<>();
    for (byte[] element : ListFraming.decode(entry.value())) {
      elements.add((int) element[0]);
    }
    return (char) entry.key()[0] + "=" + elements;
  }

  /**
   * Lists come and go (appends, batch appends, deletes, range deletes, puts over lists, and a plain
   * value appended to) while removed lists' buffers are reused for new ones: every list reads back
   * exactly what a model holds, so no reused buffer shows another list's bytes.
   */
  @Test
  void listsOnReusedBuffersReadBackWhatWasAppended() {
    HeapStateTable table = new HeapStateTable("t");
    java.util.TreeMap<Integer, List<byte[]>> model = new java.util.TreeMap<>();
    java.util.Random random = new java.util.Random(21);
    long mostPooled = 0;
    for (int step = 0; step < 50_000; step++) {
      int k = random.nextInt(200);
      byte[] key = {(byte) (k >> 8), (byte) k};
      int op = random.nextInt(10);
      if (op < 5) {
        byte[] element = new byte[random.nextInt(300)];
        random.nextBytes(element);
        table.append(key, element);
        model.computeIfAbsent(k, x -> new ArrayList<>()).add(element);
      } else if (op < 7) {
        List<byte[]> elements = new ArrayList<>();
        for (int i = random.nextInt(4); i >= 0; i--) {
          byte[] element = new byte[random.nextInt(40)];
          random.nextBytes(element);
          elements.add(element);
        }
        table.appendAll(key, elements);
        model.computeIfAbsent(k, x -> new ArrayList<>()).addAll(elements);
      } else if (op < 8) {
        table.delete(key);
        model.remove(k);
      } else if (op < 9) {
        int to = Math.min(200, k + 1 + random.nextInt(20));
        table.deleteRange(key, new byte[] {(byte) (to >> 8), (byte) to});
        model.subMap(k, to).clear();
      } else {
        // A plain value that is one framed element, which a later append extends.
        byte[] element = {(byte) step};
        table.put(key, ListFraming.frame(element));
        model.put(k, new ArrayList<>(List.of(element)));
      }
      mostPooled = Math.max(mostPooled, table.pooledListBytes());
      if (step % 997 == 0) {
        for (var e : model.entrySet()) {
          byte[] read = {(byte) (e.getKey() >> 8), (byte) (int) e.getKey()};
          assertListEquals(
              e.getValue(), table.getList(read), "step " + step + " key " + e.getKey());
        }
      }
    }
    assertTrue(mostPooled > 0, "no removed list's buffer was kept for reuse");
  }

  private static void assertListEquals(List<byte[]> expected, List<byte[]> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), what + " element " + i);
    }
  }
}
