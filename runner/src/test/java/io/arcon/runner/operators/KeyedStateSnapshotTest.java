package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.KeyedTimer;
import io.arcon.runner.state.rescale.KeyedBackendRestore;
import io.arcon.runner.state.rescale.KeyedRowLayouts;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.state.CloseableIterator;
import io.arcon.state.CorruptSnapshotException;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateEntry;
import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.state.WatermarkHoldState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshots of {@link KeyedStateContext} restored at the same and at other parallelisms and
 * engines, on real backends and files. Expectations come from the keys alone: which instance owns a
 * key is {@link KeyGroups#instanceForKey} of its coder encoding (what the keyed edge routes by),
 * and what each key holds is a function of its index.
 */
class KeyedStateSnapshotTest {
  private static final int KEYS = 240;
  private static final int PREVIOUS = 2;
  private static final long WATERMARK = 777;
  private static final StateNamespace NS = StateNamespaces.global();
  private static final StateTag<ValueState<Integer>> COUNT =
      StateTags.value("count", VarIntCoder.of());
  private static final StateTag<BagState<String>> EVENTS =
      StateTags.bag("events", StringUtf8Coder.of());
  private static final StateTag<WatermarkHoldState> HOLD =
      StateTags.watermarkStateInternal("hold", TimestampCombiner.EARLIEST);
  private static final HexFormat HEX = HexFormat.of();

  @TempDir Path tmp;

  // ------------------------------------------------------------------ the oracle

  private static String key(int i) {
    return "key-" + i;
  }

  private static byte[] encoded(int i) {
    try {
      return CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key(i));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static int owner(int i, int parallelism) {
    return KeyGroups.instanceForKey(encoded(i), parallelism);
  }

  private static List<String> events(int i) {
    List<String> out = new ArrayList<>();
    for (int j = 0; j <= i % 3; j++) {
      out.add("e" + i + "-" + j);
    }
    return out;
  }

  private static long eventTimer(int i) {
    return 1000 + i;
  }

  private static long hold(int i) {
    return 5000 + i;
  }

  /** Timers each key has: event time always, processing time for even keys. */
  private static TreeSet<String> expectedTimers(int instance, int parallelism) {
    TreeSet<String> out = new TreeSet<>();
    for (int i = 0; i < KEYS; i++) {
      if (owner(i, parallelism) == instance) {
        out.add(key(i) + "/t/" + eventTimer(i));
        if (i % 2 == 0) {
          out.add(key(i) + "/p/" + (2000 + i));
        }
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ writing

  private KeyedStateContext<String> context(
      String engine, Path dir, OperatorRestore restore, int i, int p) {
    return new KeyedStateContext<>(
        StateBackendConfig.of(engine, dir),
        StringUtf8Coder.of(),
        GlobalWindow.Coder.INSTANCE,
        restore,
        i,
        p);
  }

  /** Instance {@code instance} of {@link #PREVIOUS}, with the state of the keys it owns. */
  private KeyedStateContext<String> written(String engine, int instance) {
    KeyedStateContext<String> keyed =
        context(engine, tmp.resolve("live-" + instance), null, instance, PREVIOUS);
    keyed.stateInternals.enableHistory(
        Map.of("count", StateSpecs.value(VarIntCoder.of())), Map.of("count", true), () -> 0L);
    BackendTimeSortedInput<String> sorted =
        new BackendTimeSortedInput<>(
            keyed.stateInternals.backend(), StringUtf8Coder.of(), GlobalWindow.Coder.INSTANCE);
    for (int i = 0; i < KEYS; i++) {
      if (owner(i, PREVIOUS) != instance) {
        continue;
      }
      keyed.setCurrentKey(encoded(i), key(i), new Instant(100 + i));
      keyed.stateInternals.state(NS, COUNT).write(i * 7);
      for (String e : events(i)) {
        keyed.stateInternals.state(NS, EVENTS).add(e);
      }
      keyed.stateInternals.state(NS, HOLD).add(new Instant(hold(i)));
      keyed.timerInternals.setTimer(
          TimerData.of(
              "t",
              "",
              NS,
              new Instant(eventTimer(i)),
              new Instant(eventTimer(i)),
              TimeDomain.EVENT_TIME));
      if (i % 2 == 0) {
        keyed.timerInternals.setTimer(
            TimerData.of(
                "p",
                "",
                NS,
                new Instant(2000 + i),
                new Instant(2000 + i),
                TimeDomain.PROCESSING_TIME));
      }
      // Few distinct timestamps: both instances number their rows from 0, so a merge that kept
      // the row keys would overwrite rows.
      sorted.add(
          encoded(i), WindowedValues.timestampedValueInGlobalWindow("v" + i, new Instant(i % 7)));
    }
    return keyed;
  }

  /** Snapshots both previous instances (epoch 1) and closes them; returns their directories. */
  private List<Path> snapshotAll(String engine) {
    List<Path> dirs = new ArrayList<>();
    for (int instance = 0; instance < PREVIOUS; instance++) {
      try (KeyedStateContext<String> keyed = written(engine, instance)) {
        dirs.add(snapshot(keyed, instance).join());
      }
    }
    return dirs;
  }

  private CompletableFuture<Path> snapshot(KeyedStateContext<String> keyed, int instance) {
    TestOperatorContext.Snapshot snapshot =
        new TestOperatorContext.Snapshot(1, tmp.resolve("checkpoint/op-" + instance));
    keyed.snapshot(snapshot, WATERMARK);
    return CompletableFuture.allOf(snapshot.asyncParts.toArray(new CompletableFuture<?>[0]))
        .thenApply(x -> snapshot.directory());
  }

  // ------------------------------------------------------------------ checking

  /** Checks one restored instance against the oracle; returns its timers and sorted input. */
  private void assertOwnsExactlyItsKeys(
      KeyedStateContext<String> keyed, int instance, int parallelism, List<String> sortedOut) {
    assertEquals(WATERMARK, keyed.restoredInputWatermark());
    long minHold = Long.MAX_VALUE;
    for (int i = 0; i < KEYS; i++) {
      keyed.setCurrentKey(encoded(i), key(i), new Instant(0));
      Integer count = keyed.stateInternals.state(NS, COUNT).read();
      List<String> bag = new ArrayList<>();
      keyed.stateInternals.state(NS, EVENTS).read().forEach(bag::add);
      Instant h = keyed.stateInternals.state(NS, HOLD).read();
      if (owner(i, parallelism) == instance) {
        assertEquals(i * 7, count, key(i));
        assertEquals(events(i), bag, key(i));
        assertEquals(new Instant(hold(i)), h, key(i));
        minHold = Math.min(minHold, hold(i));
      } else {
        assertNull(count, key(i) + " belongs to instance " + owner(i, parallelism));
        assertTrue(bag.isEmpty(), key(i));
        assertNull(h, key(i));
      }
    }
    assertEquals(minHold, keyed.hold(false));
    TreeSet<String> timers = new TreeSet<>();
    KeyedTimer t;
    while ((t = keyed.pollEventTimer(Long.MAX_VALUE)) != null) {
      timers.add(keyed.setCurrentKeyForTimer(t) + "/t/" + t.timer().getTimestamp().getMillis());
    }
    while ((t = keyed.pollProcessingTimer(1_000_000)) != null) {
      timers.add(keyed.setCurrentKeyForTimer(t) + "/p/" + t.timer().getTimestamp().getMillis());
    }
    assertEquals(expectedTimers(instance, parallelism), timers);
    BackendTimeSortedInput<String> sorted =
        new BackendTimeSortedInput<>(
            keyed.stateInternals.backend(), StringUtf8Coder.of(), GlobalWindow.Coder.INSTANCE);
    long[] last = {Long.MIN_VALUE};
    try {
      sorted.releaseBefore(
          Long.MAX_VALUE,
          (k, e) -> {
            String s = CoderUtils.decodeFromByteArray(StringUtf8Coder.of(), k);
            assertEquals("v" + s.substring(4), e.getValue());
            assertEquals(instance, KeyGroups.instanceForKey(k, parallelism));
            assertTrue(e.getTimestamp().getMillis() >= last[0], "released in timestamp order");
            last[0] = e.getTimestamp().getMillis();
            sortedOut.add(e.getValue());
          });
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private void restoreAndCheck(
      String fromEngine, String toEngine, List<Path> dirs, int parallelism) {
    List<String> sorted = new ArrayList<>();
    Map<String, Map<String, Integer>> rowsByInstance = new HashMap<>();
    for (int instance = 0; instance < parallelism; instance++) {
      OperatorRestore restore = new TestOperatorContext.Restore(1, dirs, instance, parallelism);
      try (KeyedStateContext<String> keyed =
          context(
              toEngine,
              tmp.resolve("restored-" + parallelism + "-" + instance),
              restore,
              instance,
              parallelism)) {
        assertEquals(toEngine, keyed.stateInternals.backend().engine());
        assertHistoryRowsOwned(keyed.stateInternals.backend(), instance, parallelism);
        assertOwnsExactlyItsKeys(keyed, instance, parallelism, sorted);
      }
    }
    TreeSet<String> expectedSorted = new TreeSet<>();
    for (int i = 0; i < KEYS; i++) {
      expectedSorted.add("v" + i);
    }
    assertEquals(KEYS, sorted.size(), "every buffered element exactly once: " + fromEngine);
    assertEquals(expectedSorted, new TreeSet<>(sorted));
  }

  /**
   * The history (TSS version chains: base rows and runs) holds the rows of every owned key, none of
   * the others.
   */
  private static void assertHistoryRowsOwned(StateBackend backend, int instance, int parallelism) {
    java.util.Set<Integer> owned = new TreeSet<>();
    for (int i = 0; i < KEYS; i++) {
      if (owner(i, parallelism) == instance) {
        owned.add(i);
      }
    }
    java.util.Set<String> keys = new TreeSet<>();
    try (CloseableIterator<StateEntry> it =
        backend.table(io.arcon.runner.state.history.ChainLayout.HISTORY_TABLE).iterator()) {
      while (it.hasNext()) {
        byte[] rowKey = it.next().key();
        byte[] key =
            io.arcon.runner.state.OrderedBytes.readLengthPrefixed(
                rowKey, io.arcon.runner.state.OrderedBytes.skipLengthPrefixed(rowKey, 0));
        assertEquals(instance, KeyGroups.instanceForKey(key, parallelism));
        keys.add(java.util.Arrays.toString(key));
      }
    }
    try (CloseableIterator<StateEntry> it =
        backend.table(io.arcon.runner.state.history.ChainLayout.RUNS_TABLE).iterator()) {
      while (it.hasNext()) {
        StateEntry row = it.next();
        if (!io.arcon.runner.state.history.ChainLayout.isRunPage(row.key())) {
          continue;
        }
        io.arcon.runner.state.history.ChainLayout.runRowWithKeys(
            row.key(),
            row.value(),
            key -> {
              assertEquals(instance, KeyGroups.instanceForKey(key, parallelism));
              keys.add(java.util.Arrays.toString(key));
              return true;
            });
      }
    }
    assertEquals(owned.size(), keys.size());
  }

  // ------------------------------------------------------------------ tests

  @ParameterizedTest
  @CsvSource({
    "heap,heap,2",
    "heap,heap,3",
    "heap,heap,1",
    "rocksdb,rocksdb,2",
    "rocksdb,rocksdb,3",
    "rocksdb,rocksdb,1",
    "lmdb,lmdb,2",
    "lmdb,lmdb,3",
    "lmdb,lmdb,1",
    "heap,rocksdb,2",
    "heap,rocksdb,3",
    "rocksdb,lmdb,3",
    "lmdb,heap,1"
  })
  void everyKeysStateTimersAndHoldsEndUpOnceInItsOwner(String from, String to, int parallelism) {
    List<Path> dirs = snapshotAll(from);
    restoreAndCheck(from, to, dirs, parallelism);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void asyncSnapshotHoldsTheStateAtTheCutWhileWritesContinue(String engine) throws Exception {
    List<Path> dirs = new ArrayList<>();
    for (int instance = 0; instance < PREVIOUS; instance++) {
      try (KeyedStateContext<String> keyed = written(engine, instance)) {
        CompletableFuture<Path> pending = snapshot(keyed, instance);
        // Writes after the cut: every key's state changes, new timers and holds appear.
        for (int round = 0; round < 60; round++) {
          for (int i = 0; i < KEYS; i++) {
            if (owner(i, PREVIOUS) != instance) {
              continue;
            }
            keyed.setCurrentKey(encoded(i), key(i), new Instant(10_000));
            keyed.stateInternals.state(NS, COUNT).write(-round);
            keyed.stateInternals.state(NS, EVENTS).add("late");
            keyed.stateInternals.state(NS, HOLD).add(new Instant(1));
            keyed.timerInternals.setTimer(
                TimerData.of(
                    "t" + round, "", NS, new Instant(1), new Instant(1), TimeDomain.EVENT_TIME));
          }
        }
        dirs.add(pending.get());
      }
    }
    restoreAndCheck(engine, engine, dirs, PREVIOUS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void corruptSnapshotIsRefusedNamingTheFile(String engine) throws IOException {
    List<Path> dirs = snapshotAll(engine);
    Path corrupt = largestFile(dirs.get(1).resolve(KeyedBackendRestore.SNAPSHOT_DIRECTORY));
    byte[] bytes = Files.readAllBytes(corrupt);
    bytes[bytes.length / 2] ^= 0x5a;
    // A new file in its place: rocksdb snapshot files are hard links.
    Files.delete(corrupt);
    Files.write(corrupt, bytes);
    for (int parallelism : new int[] {3, 2}) {
      int p = parallelism;
      OperatorRestore restore = new TestOperatorContext.Restore(1, dirs, 1, p);
      CorruptSnapshotException e =
          assertThrows(
              CorruptSnapshotException.class,
              () -> context(engine, tmp.resolve("bad-" + p), restore, 1, p).close());
      assertTrue(e.getMessage().contains(corrupt.toString()), e.getMessage());
    }
  }

  @Test
  void missingManifestIsRefusedNamingTheDirectory() throws IOException {
    List<Path> dirs = snapshotAll("rocksdb");
    Path snapshot = dirs.get(0).resolve(KeyedBackendRestore.SNAPSHOT_DIRECTORY);
    Files.delete(snapshot.resolve(SnapshotManifest.FILE_NAME));
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () ->
                context(
                        "rocksdb",
                        tmp.resolve("x"),
                        new TestOperatorContext.Restore(1, dirs, 0, 3),
                        0,
                        3)
                    .close());
    assertTrue(e.getMessage().contains(snapshot.toString()), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "lmdb"})
  void unknownTableIsRefusedNotDropped(String engine) {
    List<Path> dirs = new ArrayList<>();
    for (int instance = 0; instance < PREVIOUS; instance++) {
      try (KeyedStateContext<String> keyed = written(engine, instance)) {
        keyed.stateInternals.backend().table("mystery").put(new byte[] {1}, new byte[] {2});
        dirs.add(snapshot(keyed, instance).join());
      }
    }
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                context(
                        engine,
                        tmp.resolve("y"),
                        new TestOperatorContext.Restore(1, dirs, 0, 3),
                        0,
                        3)
                    .close());
    assertTrue(e.getMessage().contains("mystery"), e.getMessage());
    // At the same parallelism and engine the instance's own snapshot is restored whole.
    try (KeyedStateContext<String> keyed =
        context(
            engine,
            tmp.resolve("z"),
            new TestOperatorContext.Restore(1, dirs, 0, PREVIOUS),
            0,
            PREVIOUS)) {
      assertEquals(2, keyed.stateInternals.backend().table("mystery").get(new byte[] {1})[0]);
    }
  }

  @Test
  void timeSortedTableNameMatchesItsWriter() {
    assertEquals(BackendTimeSortedInput.TABLE, KeyedRowLayouts.TIME_SORTED_INPUT_TABLE);
  }

  private static Path largestFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().equals(SnapshotManifest.FILE_NAME))
          .max((a, b) -> Long.compare(a.toFile().length(), b.toFile().length()))
          .orElseThrow();
    }
  }
}
