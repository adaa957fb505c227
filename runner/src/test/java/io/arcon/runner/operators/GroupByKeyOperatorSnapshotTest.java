package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runtime.graph.KeyGroups;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A GroupByKey snapshotted mid-stream and resumed in {@code open} at another parallelism and
 * engine, runners-core's ({@link GroupByKeyOperator}) and {@link
 * WatermarkTriggerGroupByKeyOperator} alike: the panes of the run before the cut and of the resumed
 * instances together are exactly the fault-free grouping, every (key, window) once, and an element
 * that was late at the cut is still dropped after it (the input watermark is restored).
 */
class GroupByKeyOperatorSnapshotTest {
  private static final String[] KEYS = {"a", "b", "c", "d", "e", "f", "g"};
  private static final long CUT_WATERMARK = 29;

  @TempDir Path tmp;

  /**
   * runners-core's grouping, or (reduceFnRunner false) the one {@link GroupByKeyOperator#create}
   * picks.
   */
  private static KeyedGroupingOperator<String, Integer, Iterable<Integer>> operator(
      String engine, boolean reduceFnRunner) {
    WindowingStrategy<?, ?> windowing = WindowingStrategy.of(FixedWindows.of(Duration.millis(10)));
    GroupByKeyOperator.Spec<String, Integer, Iterable<Integer>> spec =
        new GroupByKeyOperator.Spec<>(
            "Group",
            PipelineOptionsFactory.create(),
            StringUtf8Coder.of(),
            windowing,
            SystemReduceFn.<String, Integer, BoundedWindow>buffering(VarIntCoder.of()),
            engine,
            new OperatorMetrics(new MetricsContainerStepMap(), "Group"));
    return reduceFnRunner ? new GroupByKeyOperator<>(spec) : GroupByKeyOperator.create(spec);
  }

  private static byte[] keyBytes(String key) throws Exception {
    return CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key);
  }

  private static void send(KeyedGroupingOperator<String, Integer, Iterable<Integer>> op, int i)
      throws Exception {
    String key = KEYS[i % KEYS.length];
    op.setCurrentKey(keyBytes(key));
    IntervalWindow window = new IntervalWindow(new Instant(i / 10 * 10), Duration.millis(10));
    op.processElement(
        0,
        WindowedValues.of(
            KV.of(key, i),
            new Instant(i),
            window,
            org.apache.beam.sdk.transforms.windowing.PaneInfo.NO_FIRING));
  }

  /** Panes as "key@windowStart" → sorted values; fails on a second pane for one (key, window). */
  private static void collect(List<Object> emitted, Map<String, List<Integer>> panes) {
    for (Object element : emitted) {
      @SuppressWarnings("unchecked")
      WindowedValue<KV<String, Iterable<Integer>>> wv =
          (WindowedValue<KV<String, Iterable<Integer>>>) element;
      IntervalWindow window = (IntervalWindow) wv.getWindows().iterator().next();
      String id = wv.getValue().getKey() + "@" + window.start().getMillis();
      List<Integer> values = new ArrayList<>();
      wv.getValue().getValue().forEach(values::add);
      values.sort(null);
      List<Integer> previous = panes.put(id, values);
      assertEquals(null, previous, "a second pane for " + id);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "rocksdb,rocksdb,2,true",
    "heap,lmdb,3,true",
    "lmdb,heap,1,true",
    "heap,heap,1,true",
    "rocksdb,rocksdb,2,false",
    "heap,lmdb,3,false",
    "lmdb,heap,1,false",
    "heap,heap,1,false"
  })
  void resumedGroupingEqualsTheFaultFreeOne(
      String before, String after, int parallelism, boolean reduceFnRunner) throws Exception {
    int total = 100;
    Map<String, List<Integer>> expected = new TreeMap<>();
    for (int i = 0; i < total; i++) {
      expected
          .computeIfAbsent(KEYS[i % KEYS.length] + "@" + (i / 10 * 10), k -> new ArrayList<>())
          .add(i);
    }

    Map<String, List<Integer>> panes = new TreeMap<>();
    TestOperatorContext first = new TestOperatorContext(tmp.resolve("first"));
    KeyedGroupingOperator<String, Integer, Iterable<Integer>> op = operator(before, reduceFnRunner);
    op.open(first);
    op.startBundle();
    for (int i = 0; i < 50; i++) {
      send(op, i);
    }
    op.advanceWatermark(CUT_WATERMARK);
    op.finishBundle();
    Path checkpoint = tmp.resolve("checkpoint-op-0");
    TestOperatorContext.Snapshot snapshot = new TestOperatorContext.Snapshot(1, checkpoint);
    op.snapshotState(snapshot);
    // Work after the cut that a failure throws away: it must not be in the snapshot.
    op.startBundle();
    send(op, 60);
    op.finishBundle();
    CompletableFuture.allOf(snapshot.asyncParts.toArray(new CompletableFuture<?>[0])).get();
    op.close();
    collect(first.emitted, panes);

    for (int instance = 0; instance < parallelism; instance++) {
      TestOperatorContext ctx =
          new TestOperatorContext(tmp.resolve("resumed-" + instance))
              .asInstance(instance, parallelism)
              .restoringFrom(1, List.of(checkpoint));
      KeyedGroupingOperator<String, Integer, Iterable<Integer>> resumed =
          operator(after, reduceFnRunner);
      resumed.open(ctx);
      resumed.startBundle();
      for (int i = 50; i < total; i++) {
        if (KeyGroups.instanceForKey(keyBytes(KEYS[i % KEYS.length]), parallelism) == instance) {
          send(resumed, i);
        }
      }
      // Late at the cut (its window ended before watermark 29): dropped, as without the failure.
      if (KeyGroups.instanceForKey(keyBytes(KEYS[3]), parallelism) == instance) {
        send(resumed, 3);
      }
      resumed.advanceWatermark(Long.MAX_VALUE);
      resumed.finishBundle();
      resumed.close();
      collect(ctx.emitted, panes);
    }
    assertEquals(expected, panes);
  }
}
