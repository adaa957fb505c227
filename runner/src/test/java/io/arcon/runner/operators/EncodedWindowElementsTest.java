package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class EncodedWindowElementsTest {
  private static final IntervalWindow WINDOW =
      new IntervalWindow(new Instant(1_000), new Instant(2_000));

  @Test
  void everyElementComesBackAsItWentInWithItsKey() {
    EncodedWindowElements<String> group = new EncodedWindowElements<>(WINDOW, StringUtf8Coder.of());
    List<byte[]> keys = new ArrayList<>();
    List<WindowedValue<String>> elements = new ArrayList<>();
    PaneInfo[] panes = {
      PaneInfo.NO_FIRING,
      PaneInfo.ON_TIME_AND_ONLY_FIRING,
      PaneInfo.createPane(false, false, PaneInfo.Timing.LATE, 7, 3)
    };
    // Enough elements, with values of every length, to spread over several chunks.
    for (int i = 0; i < 20_000; i++) {
      byte[] key = i % 5 == 0 ? null : new byte[] {(byte) i, (byte) (i >> 8)};
      String value = "v".repeat(i % 300) + i;
      WindowedValue<String> element =
          WindowedValues.of(
              value,
              new Instant(1_000 + i % 1_000),
              WINDOW,
              panes[i % panes.length],
              i % 3 == 0 ? "record-" + i : null,
              i % 4 == 0 ? (long) i * 31 : null,
              i % 7 == 0 ? CausedByDrain.CAUSED_BY_DRAIN : CausedByDrain.NORMAL);
      keys.add(key);
      elements.add(element);
      group.add(key, element);
    }
    assertEquals(elements.size(), group.size());
    assertEquals(1_000, group.minTimestamp());

    Iterator<HeldElements.Held<String>> it = group.iterator();
    for (int i = 0; i < elements.size(); i++) {
      HeldElements.Held<String> held = it.next();
      WindowedValue<String> expected = elements.get(i);
      WindowedValue<String> actual = held.value();
      if (keys.get(i) == null) {
        assertNull(held.keyBytes());
      } else {
        assertArrayEquals(keys.get(i), held.keyBytes());
      }
      assertEquals(expected.getValue(), actual.getValue());
      assertEquals(expected.getTimestamp(), actual.getTimestamp());
      assertEquals(List.copyOf(expected.getWindows()), List.copyOf(actual.getWindows()));
      assertEquals(expected.getPaneInfo(), actual.getPaneInfo());
      assertEquals(expected.getRecordId(), actual.getRecordId());
      assertEquals(expected.getRecordOffset(), actual.getRecordOffset());
      assertEquals(expected.causedByDrain(), actual.causedByDrain());
    }
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
    // Reading does not take them out: a snapshot reads them and they stay held.
    assertEquals(elements.get(0).getValue(), group.iterator().next().value().getValue());
  }

  @Test
  void anEmptyGroupHasNothingToRead() {
    EncodedWindowElements<String> group = new EncodedWindowElements<>(WINDOW, StringUtf8Coder.of());
    assertFalse(group.iterator().hasNext());
    assertEquals(Long.MAX_VALUE, group.minTimestamp());
  }
}
