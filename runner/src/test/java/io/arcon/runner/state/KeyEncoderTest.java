package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.runtime.graph.KeyExtractor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.coders.BigEndianIntegerCoder;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** Every encoder writes exactly the bytes of {@code CoderUtils.encodeToByteArray(coder, key)}. */
class KeyEncoderTest {
  private static final Random RANDOM = new Random(20261204L);

  @Test
  void longKeysMatchVarLongCoderIncludingNegativesAndTheExtremes() throws Exception {
    List<Long> keys =
        new ArrayList<>(
            List.of(0L, 1L, 127L, 128L, 16_383L, 16_384L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
    for (int shift = 0; shift < 64; shift++) {
      keys.add(1L << shift);
      keys.add((1L << shift) - 1);
      keys.add(-(1L << shift));
    }
    for (int i = 0; i < 10_000; i++) {
      keys.add(RANDOM.nextLong());
      keys.add((long) RANDOM.nextInt(1_000_000));
    }
    assertSameBytes(VarLongCoder.of(), keys);
    assertSameBytes(BigEndianLongCoder.of(), keys);
  }

  @Test
  void intKeysMatchVarIntCoderIncludingNegatives() throws Exception {
    List<Integer> keys =
        new ArrayList<>(List.of(0, 1, 127, 128, -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
    for (int i = 0; i < 10_000; i++) {
      keys.add(RANDOM.nextInt());
    }
    assertSameBytes(VarIntCoder.of(), keys);
    assertSameBytes(BigEndianIntegerCoder.of(), keys);
  }

  @Test
  void stringAndByteKeysMatchTheirCodersInTheOuterContext() throws Exception {
    assertSameBytes(
        StringUtf8Coder.of(), List.of("", "user-1", "ünïcödé", "日本語", "emoji \uD83D\uDE00"));
    assertSameBytes(ByteArrayCoder.of(), List.of(new byte[0], new byte[] {1, 2, 3, -1}));
  }

  @Test
  void otherCodersGoThroughTheCoder() throws Exception {
    assertSameBytes(DoubleCoder.of(), List.of(0.0, -1.5, Double.NaN));
    assertSameBytes(
        KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()),
        List.of(KV.of("a", 1L), KV.of("", -3L)));
  }

  @Test
  void aByteArrayKeyIsCopiedSoTheCallerMayReuseItsArray() throws Exception {
    byte[] key = {1, 2, 3};
    byte[] encoded = KeyEncoder.of(ByteArrayCoder.of()).encode(key);
    key[0] = 9;
    assertArrayEquals(new byte[] {1, 2, 3}, encoded);
  }

  @Test
  void aNullKeyIsRefusedAsTheCoderRefusesIt() {
    assertThrows(CoderException.class, () -> KeyEncoder.of(VarLongCoder.of()).encode(null));
    assertThrows(CoderException.class, () -> KeyEncoder.of(StringUtf8Coder.of()).encode(null));
  }

  @Test
  void theKeyedEdgeExtractorEncodesTheKeyOfAWindowedKv() throws Exception {
    KeyExtractor extractor = KeyEncoder.ofWindowedKv(VarLongCoder.of());
    Object element =
        WindowedValues.of(
            KV.of(300L, "v"), new Instant(5), GlobalWindow.INSTANCE, PaneInfo.NO_FIRING);
    assertArrayEquals(
        CoderUtils.encodeToByteArray(VarLongCoder.of(), 300L), extractor.keyBytes(element));
  }

  private static <T> void assertSameBytes(Coder<T> coder, List<T> keys) throws Exception {
    KeyEncoder encoder = KeyEncoder.of(coder);
    for (T key : keys) {
      assertArrayEquals(
          CoderUtils.encodeToByteArray(coder, key),
          encoder.encode(key),
          () -> coder + " encodes " + key + " differently");
    }
  }
}
