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
import java.util.TreeSet;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every sort buffer releases exactly what is below the watermark, by (timestamp, arrival): on the
 * heap, on rocksdb and lmdb as {@link TimeSortedInput#forEngine} makes it (in memory up to its
 * limit), all in the backend ({@code :backend}), and split between memory and backend ({@code
 * :spill}, a limit of a few dozen elements).
 */
class TimeSortedInputTest {
  @TempDir Path dir;

  private static TimeSortedInput<KV<String, Integer>> buffer(String variant, StateBackend backend) {
    var coder = KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of());
    if (variant.endsWith(":backend")) {
      return new SpillingTimeSortedInput<>(backend, coder, GlobalWindow.Coder.INSTANCE, 0);
    }
    if (variant.endsWith(":spill")) {
      return new SpillingTimeSortedInput<>(backend, coder, GlobalWindow.Coder.INSTANCE, 37);
    }
    return TimeSortedInput.forEngine(variant, backend, coder, GlobalWindow.Coder.INSTANCE);
  }

  /** Every buffer variant {@link #buffer} makes. */
  static List<String> variants() {
    return List.of(
        "heap",
        "rocksdb",
        "lmdb",
        "rocksdb:backend",
        "lmdb:backend",
        "rocksdb:spill",
        "lmdb:spill");
  }

  private static StateBackend open(String variant, Path dir) {
    String engine = variant.split(":")[0];
    return StateBackends.open(
        StateBackendConfig.of(engine, dir.resolve(variant.replace(':', '-'))));
  }

  @ParameterizedTest
  @MethodSource("variants")
  void releasesBelowTheWatermarkInTimestampThenArrivalOrder(String engine) throws Exception {
    StateBackend backend = open(engine, dir);
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
  @MethodSource("variants")
  void elementsAddedBetweenReleasesAlsoBelowAPastWatermarkAreReleased(String engine)
      throws Exception {
    StateBackend backend = open(engine, dir);
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

  /**
   * The heap buffer against a sorted model over 30,000 operations: timestamps near the last
   * release, far ahead, negative, at both ends of the long range and many equal; input before the
   * last release (the buffer rebuilds its buckets); releases one at a time and up to watermarks;
   * and {@code firstBefore} after every step.
   */
  @Test
  void theHeapBufferMatchesASortedModelOverAnyTimestamps() throws Exception {
    HeapTimeSortedInput<Integer> buffer = new HeapTimeSortedInput<>();
    TreeSet<long[]> model =
        new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    Random rnd = new Random(17);
    long frontier = -1_000;
    int arrival = 0;
    for (int step = 0; step < 30_000; step++) {
      int op = rnd.nextInt(10);
      if (op < 6) {
        long ts =
            switch (rnd.nextInt(8)) {
              case 0 -> frontier; // equal to the frontier, often repeated
              case 1 -> frontier + rnd.nextInt(4);
              case 2 -> frontier + rnd.nextInt(1 << 20);
              case 3 -> frontier - 1 - rnd.nextInt(50); // before the last release
              case 4 -> rnd.nextBoolean() ? Long.MAX_VALUE - rnd.nextInt(3) : Long.MIN_VALUE;
              case 5 -> rnd.nextLong();
              default -> frontier + rnd.nextInt(300);
            };
        model.add(new long[] {ts, arrival});
        buffer.add(
            new byte[] {(byte) arrival},
            WindowedValues.of(arrival, new Instant(ts), GlobalWindow.INSTANCE, PaneInfo.NO_FIRING),
            arrival);
        arrival++;
      } else if (op < 8 && !model.isEmpty()) {
        long[] first = model.pollFirst();
        List<Integer> released = new ArrayList<>();
        buffer.releaseFirst((key, element) -> released.add(element.getValue()));
        assertEquals(List.of((int) first[1]), released, "step " + step);
        // The frontier stays far from the ends of the long range, so watermarks do not overflow.
        frontier = Math.max(frontier, Math.min(first[0], 1L << 50));
      } else {
        long watermark = frontier + rnd.nextInt(500);
        List<Integer> released = new ArrayList<>();
        buffer.releaseBefore(watermark, (key, element) -> released.add(element.getValue()));
        List<Integer> expected = new ArrayList<>();
        while (!model.isEmpty() && model.first()[0] < watermark) {
          expected.add((int) model.pollFirst()[1]);
        }
        assertEquals(expected, released, "step " + step + ", released below " + watermark);
        frontier = watermark;
      }
      assertEquals(model.size(), buffer.size(), "step " + step);
      long probeTs = frontier + rnd.nextInt(100) - 50;
      long probeOrder = rnd.nextInt(arrival + 1);
      boolean expectedBefore =
          !model.isEmpty()
              && (model.first()[0] != probeTs
                  ? model.first()[0] < probeTs
                  : model.first()[1] < probeOrder);
      assertEquals(expectedBefore, buffer.firstBefore(probeTs, probeOrder), "step " + step);
    }
    List<Integer> rest = new ArrayList<>();
    buffer.releaseBefore(Long.MAX_VALUE, (key, element) -> rest.add(element.getValue()));
    assertEquals(model.stream().map(a -> (int) a[1]).toList(), rest);
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

  /**
   * A buffer split between memory and backend survives a snapshot: the heap part goes into the
   * operator snapshot, the spilled part into the backend's, and the restored buffer (heap part
   * added again, as the operator does) releases every element in timestamp order.
   */
  @ParameterizedTest
  @ValueSource(strings = {"rocksdb:spill", "lmdb:spill"})
  void aSpilledBufferSurvivesASnapshotAndRestore(String variant) throws Exception {
    StateBackend backend = open(variant, dir);
    var coder =
        WindowedValues.getFullCoder(
            KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()), GlobalWindow.Coder.INSTANCE);
    List<Integer> expected = new ArrayList<>();
    Path held = dir.resolve("held");
    io.arcon.state.SnapshotHandle handle;
    try {
      SpillingTimeSortedInput<KV<String, Integer>> buffer =
          (SpillingTimeSortedInput<KV<String, Integer>>) buffer(variant, backend);
      List<Integer> timestamps = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        timestamps.add(i * 3);
      }
      java.util.Collections.shuffle(timestamps, new Random(9));
      for (int ts : timestamps) {
        buffer.add(
            new byte[] {(byte) ts},
            WindowedValues.timestampedValueInGlobalWindow(KV.of("k", ts), new Instant(ts)));
      }
      buffer.releaseBefore(150, (key, element) -> {});
      timestamps.stream().filter(t -> t >= 150).sorted().forEach(expected::add);
      assertEquals(expected.size(), buffer.size());
      org.junit.jupiter.api.Assertions.assertTrue(buffer.spilledSize() > 0, "nothing spilled");
      SnapshotWriter out = new SnapshotWriter("test", 1);
      buffer.writeTo(out, coder);
      out.writeTo(held);
      handle = backend.snapshot(1, dir.resolve("snap"));
      // Released after the cut: the restore brings them back.
      buffer.releaseBefore(400, (key, element) -> {});
    } finally {
      backend.close();
    }

    StateBackend restored = open(variant, dir.resolve("restored"));
    try {
      restored.restore(handle);
      TimeSortedInput<KV<String, Integer>> buffer = buffer(variant, restored);
      SnapshotReader in = SnapshotReader.open(held, "test", 1);
      int count = in.readCount("held", 2);
      for (int i = 0; i < count; i++) {
        byte[] key = in.readBoolean("key presence") ? in.readBytes("key") : null;
        buffer.add(key, in.readEncoded(coder, "element"));
      }
      assertEquals(expected.size(), buffer.size());
      List<Integer> released = new ArrayList<>();
      buffer.releaseBefore(
          Long.MAX_VALUE,
          (key, element) -> {
            assertEquals((byte) (int) element.getValue().getValue(), key[0]);
            released.add(element.getValue().getValue());
          });
      assertEquals(expected, released);
    } finally {
      restored.dispose();
    }
  }
}
