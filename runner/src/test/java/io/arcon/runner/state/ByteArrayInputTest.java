package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.junit.jupiter.api.Test;

class ByteArrayInputTest {
  @Test
  void readsOnlyUpToItsEnd() throws IOException {
    byte[] bytes = {1, 2, 3, 4, 5, 6};
    ByteArrayInput in = new ByteArrayInput(bytes, 1, 4);
    assertEquals(3, in.available());
    assertEquals(2, in.read());
    byte[] target = new byte[8];
    assertEquals(2, in.read(target, 0, 8));
    assertArrayEquals(new byte[] {3, 4, 0, 0, 0, 0, 0, 0}, target);
    assertEquals(-1, in.read());
    assertEquals(-1, in.read(target, 0, 1));
    assertEquals(0, in.skip(5));
    assertThrows(IndexOutOfBoundsException.class, () -> new ByteArrayInput(bytes, 4, 7));
  }

  /**
   * A stamped value decoded where it lies, in the middle of a larger array (as the heap engine
   * holds it): a coder that reads to the end of its input (the outer context) must stop at the
   * value's end, not at the array's.
   */
  @Test
  void aStampedDecoderReadsExactlyTheValue() throws IOException {
    Coder<byte[]> outer = ByteArrayCoder.of();
    byte[] stored = new StateCoding().stamped(42, StringUtf8Coder.of(), "hello");
    byte[] slab = new byte[stored.length + 20];
    System.arraycopy(stored, 0, slab, 7, stored.length);
    assertEquals(
        "hello", StateCoding.stampedDecoder(StringUtf8Coder.of()).decode(slab, 7, stored.length));
    byte[] raw = {9, 8, 7};
    byte[] stamped = new byte[StateCoding.STAMP_BYTES + raw.length];
    System.arraycopy(raw, 0, stamped, StateCoding.STAMP_BYTES, raw.length);
    byte[] around = new byte[stamped.length + 5];
    System.arraycopy(stamped, 0, around, 2, stamped.length);
    java.util.Arrays.fill(around, 2 + stamped.length, around.length, (byte) 1);
    @SuppressWarnings("deprecation") // the outer context reads to the end of the stream
    byte[] decoded =
        outer.decode(
            new ByteArrayInput(around, 2 + StateCoding.STAMP_BYTES, 2 + stamped.length),
            Coder.Context.OUTER);
    assertArrayEquals(raw, decoded);
  }
}
