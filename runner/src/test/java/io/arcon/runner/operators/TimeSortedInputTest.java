package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both sort buffers release exactly what is below the watermark, by (timestamp, arrival). */
class TimeSortedInputTest {
  @TempDir Path dir;

  private static TimeSortedInput<KV<String, Integer>> buffer(String engine, StateBackend backend) {
    return TimeSortedInput.forEngine(
        engine,
        backend,
        KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()),
        GlobalWindow.Coder.INSTANCE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void releasesBelowTheWatermarkInTimestampThenArrivalOrder(String engine) throws Exception {
    StateBackend backend = StateBackends.open(StateBackendConfig.of(engine, dir.resolve(engine)));
    try {
      TimeSortedInput<KV<String, Integer>> buffer = buffer(engine, backend);
      Random rnd = new Random(5);
      List<long[]> added = new ArrayList<>(); // {timestamp, arrival}
      for (int i = 0; i < 500; i++) {
        long ts = rnd.nextInt(100) - 50; // negative timestamps too, and many equal ones
        added.add(new long[] {ts, i});
        buffer.add(
            new byte[] {(byte) i},
            WindowedValues.timestampedValueInGlobalWindow(KV.of("k" + i, i), new Instant(ts)));
      }
      for (long watermark : new long[] {-20, -20, 10, Long.MAX_VALUE}) {
        List<Integer> released = new ArrayList<>();
        buffer.releaseBefore(
            watermark,
            (key, element) -> {
              assertEquals((byte) (int) element.getValue().getValue(), key[0]);
              released.add(element.getValue().getValue());
            });
        List<Integer> expected =
            added.stream()
                .filter(a -> watermark == Long.MAX_VALUE || a[0] < watermark)
                .sorted(
                    (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]))
                .map(a -> (int) a[1])
                .toList();
        assertEquals(expected, released, "released below " + watermark);
        added.removeIf(a -> watermark == Long.MAX_VALUE || a[0] < watermark);
        assertEquals(added.size(), buffer.size());
      }
    } finally {
      backend.dispose();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void elementsAddedBetweenReleasesAlsoBelowAPastWatermarkAreReleased(String engine)
      throws Exception {
    StateBackend backend = StateBackends.open(StateBackendConfig.of(engine, dir.resolve(engine)));
    try {
      TimeSortedInput<KV<String, Integer>> buffer = buffer(engine, backend);
      Random rnd = new Random(11);
      List<long[]> pending = new ArrayList<>(); // {timestamp, arrival}
      long watermark = 0;
      int arrival = 0;
      for (int round = 0; round < 200; round++) {
        for (int i = rnd.nextInt(20); i > 0; i--) {
          // Mostly ahead of the watermark, sometimes behind the last release (late input).
          long ts = watermark - 30 + rnd.nextInt(100);
          pending.add(new long[] {ts, arrival});
          buffer.add(
              new byte[] {(byte) arrival},
              WindowedValues.timestampedValueInGlobalWindow(KV.of("k", arrival), new Instant(ts)));
          arrival++;
        }
        watermark += rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(40);
        long bound = watermark;
        List<Integer> released = new ArrayList<>();
        buffer.releaseBefore(bound, (key, element) -> released.add(element.getValue().getValue()));
        List<Integer> expected =
            pending.stream()
                .filter(a -> a[0] < bound)
                .sorted(
                    (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]))
                .map(a -> (int) a[1])
                .toList();
        assertEquals(expected, released, "round " + round + ", released below " + bound);
        pending.removeIf(a -> a[0] < bound);
        assertEquals(pending.size(), buffer.size());
      }
    } finally {
      backend.dispose();
    }
  }

  @Test
  void theHeapBufferSnapshotsItsElementsInReleaseOrder() throws Exception {
    TimeSortedInput<KV<String, Integer>> buffer = buffer("heap", null);
    Random rnd = new Random(3);
    List<long[]> added = new ArrayList<>(); // {timestamp, arrival}
    for (int i = 0; i < 300; i++) {
      long ts = rnd.nextInt(50);
      added.add(new long[] {ts, i});
      buffer.add(
          new byte[] {(byte) i},
          WindowedValues.timestampedValueInGlobalWindow(KV.of("k", i), new Instant(ts)));
    }
    buffer.releaseBefore(10, (key, element) -> {});
    added.removeIf(a -> a[0] < 10);
    var coder =
        WindowedValues.getFullCoder(
            KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()), GlobalWindow.Coder.INSTANCE);
    SnapshotWriter out = new SnapshotWriter("test", 1);
    buffer.writeTo(out, coder);
    Path file = dir.resolve("held");
    out.writeTo(file);

    SnapshotReader in = SnapshotReader.open(file, "test", 1);
    int count = in.readCount("held", 2);
    List<Integer> written = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] key = in.readBoolean("key presence") ? in.readBytes("key") : null;
      int value = in.readEncoded(coder, "element").getValue().getValue();
      assertEquals((byte) value, key[0]);
      written.add(value);
    }
    List<Integer> expected =
        added.stream()
            .sorted((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]))
            .map(a -> (int) a[1])
            .toList();
    assertEquals(expected, written);
  }
}
