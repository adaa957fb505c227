package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class StoredValueTest {
  private static final int[] LENGTHS = {0, 1, 6, 7, 8, 127, 128, 129, 16_383, 16_384, 100_000};

  @Test
  void roundTripsAcrossLengthHeaderSizes() throws IOException {
    for (int length : LENGTHS) {
      byte[] value = value(length, 3);
      byte[] stored = StoredValue.of(value);
      assertEquals(0, stored.length % 8);
      assertEquals(length, StoredValue.length(stored));
      assertArrayEquals(value, StoredValue.copy(stored));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      StoredValue.writeTo(out, stored);
      assertArrayEquals(value, out.toByteArray());
    }
  }

  @Test
  void overwritesInPlaceOnlyWhatFits() {
    for (int length : LENGTHS) {
      byte[] stored = StoredValue.of(value(length, 1));
      for (int other : LENGTHS) {
        byte[] update = value(other, 2);
        boolean fits = StoredValue.overwrite(stored, update);
        if (other <= length) {
          assertTrue(fits, other + " into " + length);
        }
        if (fits) {
          assertArrayEquals(update, StoredValue.copy(stored));
          stored = StoredValue.of(value(length, 1));
        } else {
          assertArrayEquals(value(length, 1), StoredValue.copy(stored));
        }
      }
    }
    // The alignment slack takes a value a little longer than the first one.
    byte[] stored = StoredValue.of(value(11, 1));
    assertTrue(StoredValue.overwrite(stored, value(12, 5)));
    assertArrayEquals(value(12, 5), StoredValue.copy(stored));
    assertFalse(StoredValue.overwrite(stored, value(16, 5)));
  }

  private static byte[] value(int length, int seed) {
    byte[] value = new byte[length];
    for (int i = 0; i < length; i++) {
      value[i] = (byte) (i * 31 + seed);
    }
    return value;
  }
}
