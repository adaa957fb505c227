package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
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
}
