package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.metrics.OperatorMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.runners.core.LateDataDroppingDoFnRunner;
import org.apache.beam.runners.core.ReduceFnRunner;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.MergeOverlappingIntervalWindows;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.transforms.windowing.Trigger.OnceTrigger;
import org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior;
import org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.transforms.windowing.WindowMappingFn;
import org.apache.beam.sdk.util.AppliedCombineFn;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.apache.beam.sdk.values.WindowingStrategy.AccumulationMode;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WatermarkTriggerGroupByKeyOperator} against runners-core's reduce logic ({@link
 * GroupByKeyOperator}) on the same random inputs: elements on time, early and late (some beyond the
 * allowed lateness), watermark and processing-time steps, under every trigger {@link
 * WatermarkTrigger} describes, fixed, sliding, session (merging) and global windows, both
 * accumulation modes, both closing and on-time behaviours, buffering and combining. After every
 * step both must have emitted the same panes (key, window, timestamp, pane info, values) and give
 * the same output watermark; at the end they must have dropped the same elements. Every third
 * scenario snapshots the operator half way (between bundles, or within one) and resumes it in a new
 * instance on rocksdb or lmdb.
 */
class WatermarkTriggerGroupByKeyOperatorTest {
  private static final String[] KEYS = {"a", "b", "c"};

  @TempDir Path directory;

  @Test
  void emitsExactlyWhatRunnersCoreEmitsOnRandomInputs() throws Exception {
    runScenarios(20261205, 600, 0, KEYS.length, 150, 0);
  }

  /**
   * Many keys in bundles of 100 elements: few elements find their key's merging windows or their
   * window's pane held from earlier in the bundle, so the operator stops holding them and writes
   * each element's cells at once, holding again in one bundle of eight ({@link BundleCellCache});
   * both ways must emit what runners-core emits.
   */
  @Test
  void emitsExactlyWhatRunnersCoreEmitsWithManyKeysInLongBundles() throws Exception {
    runScenarios(20261206, 40, 1000, 500, 2000, 100);
  }

  /**
   * Twenty keys in bundles of 100 elements: nearly every element's key comes back within its
   * bundle, so under merging windows without early firings the operator holds the bundle's elements
   * and merges each key's windows once; the panes must still be runners-core's element by element.
   */
  @Test
  void emitsExactlyWhatRunnersCoreEmitsWithHotKeysInLongBundles() throws Exception {
    runScenarios(20261207, 40, 2000, 20, 1500, 100);
  }

  /**
   * A bundle of one key's elements in one growing session: its windows are merged once (one call of
   * the WindowFn's merge), not once per element; a bundle whose elements are of different keys
   * makes the next bundles merge element by element again; the panes are runners-core's.
   */
  @Test
  void mergesAHotKeysHeldElementsOnceABundle() throws Exception {
    WindowingStrategy<?, ?> strategy = WindowingStrategy.of(new CountingSessions(10));
    GroupByKeyOperator.Spec<String, Long, Object> referenceSpec =
        spec("Reference", strategy, false);
    KeyedGroupingOperator<String, Long, Object> reference = new GroupByKeyOperator<>(referenceSpec);
    KeyedGroupingOperator<String, Long, Object> fast =
        new WatermarkTriggerGroupByKeyOperator<>(spec("Fast", strategy, false));
    TestOperatorContext referenceContext =
        new TestOperatorContext(Files.createDirectories(directory.resolve("held-r")))
            .recordingAs(WatermarkTriggerGroupByKeyOperatorTest::describe);
    TestOperatorContext fastContext =
        new TestOperatorContext(Files.createDirectories(directory.resolve("held-f")))
            .recordingAs(WatermarkTriggerGroupByKeyOperatorTest::describe);
    reference.open(referenceContext);
    fast.open(fastContext);
    try {
      reference.advanceWatermark(0);
      fast.advanceWatermark(0);
      fast.startBundle();
      CountingSessions.merges.set(0);
      for (long t = 0; t < 200; t++) {
        feed(fast, "hot", t);
      }
      assertEquals(0, CountingSessions.merges.get(), "held until the bundle ends");
      fast.finishBundle();
      assertEquals(1, CountingSessions.merges.get(), "one merge for the key's 200 elements");
      // 200 keys once each: nothing comes back, so the next bundles merge element by element.
      fast.startBundle();
      for (long t = 0; t < 200; t++) {
        feed(fast, "k" + t, 300 + t);
      }
      fast.finishBundle();
      CountingSessions.merges.set(0);
      fast.startBundle();
      for (long t = 0; t < 100; t++) {
        feed(fast, "hot", 200 + t);
      }
      assertEquals(100, CountingSessions.merges.get(), "not held: merged as each element comes");
      fast.finishBundle();
      reference.startBundle();
      for (long t = 0; t < 200; t++) {
        feed(reference, "hot", t);
      }
      for (long t = 0; t < 200; t++) {
        feed(reference, "k" + t, 300 + t);
      }
      for (long t = 0; t < 100; t++) {
        feed(reference, "hot", 200 + t);
      }
      reference.finishBundle();
      compare(referenceContext, fastContext, reference, fast, 0, "before the end");
      reference.advanceWatermark(Long.MAX_VALUE);
      fast.advanceWatermark(Long.MAX_VALUE);
      assertEquals(201, fastContext.emitted.size(), "one session per key");
      compare(referenceContext, fastContext, reference, fast, Long.MAX_VALUE, "end of input");
    } finally {
      reference.close();
      fast.close();
    }
  }

  private static void feed(KeyedGroupingOperator<String, Long, Object> operator, String key, long t)
      throws Exception {
    WindowedValue<KV<String, Long>> element =
        WindowedValues.of(
            KV.of(key, t),
            new Instant(t),
            List.of(new IntervalWindow(new Instant(t), new Instant(t + 10))),
            PaneInfo.NO_FIRING);
    operator.setCurrentKey(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key));
    operator.processElement(0, element);
  }

  /** Beam's session merging in a WindowFn of its own class, which counts its merges. */
  private static final class CountingSessions extends WindowFn<Object, IntervalWindow> {
    static final AtomicInteger merges = new AtomicInteger();
    private final long gapMillis;

    CountingSessions(long gapMillis) {
      this.gapMillis = gapMillis;
    }

    @Override
    public Collection<IntervalWindow> assignWindows(AssignContext c) {
      return List.of(new IntervalWindow(c.timestamp(), c.timestamp().plus(gapMillis)));
    }

    @Override
    public void mergeWindows(MergeContext c) throws Exception {
      merges.incrementAndGet();
      MergeOverlappingIntervalWindows.mergeWindows(c);
    }

    @Override
    public boolean isCompatible(WindowFn<?, ?> other) {
      return other instanceof CountingSessions o && o.gapMillis == gapMillis;
    }

    @Override
    public Coder<IntervalWindow> windowCoder() {
      return IntervalWindow.getCoder();
    }

    @Override
    public WindowMappingFn<IntervalWindow> getDefaultWindowMappingFn() {
      throw new UnsupportedOperationException("sessions are not side inputs");
    }
  }

  /** {@code count} scenarios of random strategies, numbered from {@code firstNumber}. */
  private void runScenarios(
      long seed, int count, int firstNumber, int keyCount, int steps, int bundleLength)
      throws Exception {
    Random random = new Random(seed);
    for (int scenario = 0; scenario < count; scenario++) {
      WindowingStrategy<?, ?> strategy = randomStrategy(random);
      boolean combining = random.nextBoolean();
      long scenarioSeed = random.nextLong();
      try {
        runScenario(
            strategy,
            combining,
            scenarioSeed,
            firstNumber + scenario,
            keyCount,
            steps,
            bundleLength);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "scenario " + scenario + " (" + strategy + ", combining " + combining + ")", e);
      }
    }
  }

  @Test
  void takesOnlyTheTriggersAndWindowsItModels() {
    WindowingStrategy<?, ?> fixed = WindowingStrategy.of(FixedWindows.of(Duration.millis(10)));
    assertTrue(WatermarkTrigger.of(fixed).isPresent());
    assertTrue(
        WatermarkTrigger.of(
                fixed.withTrigger(
                    AfterWatermark.pastEndOfWindow()
                        .withEarlyFirings(
                            AfterProcessingTime.pastFirstElementInPane()
                                .plusDelayOf(Duration.millis(5)))
                        .withLateFirings(AfterPane.elementCountAtLeast(1))))
            .isPresent());
    assertTrue(
        WatermarkTrigger.of(WindowingStrategy.of(Sessions.withGapDuration(Duration.millis(5))))
            .isPresent());
    // Other output times, aligned processing time and other triggers: runners-core.
    assertTrue(
        WatermarkTrigger.of(fixed.withTimestampCombiner(TimestampCombiner.EARLIEST)).isEmpty());
    assertTrue(
        WatermarkTrigger.of(
                fixed.withTrigger(
                    AfterWatermark.pastEndOfWindow()
                        .withEarlyFirings(
                            AfterProcessingTime.pastFirstElementInPane()
                                .alignedTo(Duration.millis(5)))))
            .isEmpty());
    // A repeated count or delay: in the global window only, where its end is also its collection.
    assertTrue(
        WatermarkTrigger.of(fixed.withTrigger(Repeatedly.forever(AfterPane.elementCountAtLeast(2))))
            .isEmpty());
    WindowingStrategy<?, ?> global = WindowingStrategy.globalDefault();
    assertTrue(
        WatermarkTrigger.of(
                global.withTrigger(
                    Repeatedly.forever(
                        AfterProcessingTime.pastFirstElementInPane()
                            .plusDelayOf(Duration.millis(5)))))
            .isPresent());
    assertTrue(
        WatermarkTrigger.of(
                global.withTrigger(
                    Repeatedly.forever(
                        AfterProcessingTime.pastFirstElementInPane()
                            .alignedTo(Duration.millis(5)))))
            .isEmpty());
    assertInstanceOf(
        WatermarkTriggerGroupByKeyOperator.class,
        GroupByKeyOperator.create(spec("G", fixed, false)));
    assertInstanceOf(
        GroupByKeyOperator.class,
        GroupByKeyOperator.create(
            spec("G", fixed.withTimestampCombiner(TimestampCombiner.LATEST), false)));
  }

  /**
   * One scenario of {@code steps} random steps over {@code keyCount} keys; with {@code
   * bundleLength} 0 six steps in ten are elements and all run in one bundle, else nearly all are
   * elements and a bundle ends every {@code bundleLength} steps.
   */
  private void runScenario(
      WindowingStrategy<?, ?> strategy,
      boolean combining,
      long seed,
      int n,
      int keyCount,
      int steps,
      int bundleLength)
      throws Exception {
    GroupByKeyOperator.Spec<String, Long, Object> referenceSpec =
        spec("Reference", strategy, combining);
    GroupByKeyOperator.Spec<String, Long, Object> fastSpec = spec("Fast", strategy, combining);
    KeyedGroupingOperator<String, Long, Object> reference = new GroupByKeyOperator<>(referenceSpec);
    KeyedGroupingOperator<String, Long, Object> fast =
        new WatermarkTriggerGroupByKeyOperator<>(fastSpec);
    TestOperatorContext referenceContext =
        new TestOperatorContext(Files.createDirectories(directory.resolve("r" + n)))
            .recordingAs(WatermarkTriggerGroupByKeyOperatorTest::describe);
    TestOperatorContext fastContext =
        new TestOperatorContext(Files.createDirectories(directory.resolve("f" + n)))
            .recordingAs(WatermarkTriggerGroupByKeyOperatorTest::describe);
    reference.open(referenceContext);
    fast.open(fastContext);
    Random random = new Random(seed);
    @SuppressWarnings("unchecked")
    WindowFn<Object, BoundedWindow> windowFn =
        (WindowFn<Object, BoundedWindow>) strategy.getWindowFn();
    long watermark = 0;
    long now = 1_000;
    referenceContext.setProcessingTime(now);
    fastContext.setProcessingTime(now);
    reference.advanceProcessingTime(now);
    fast.advanceProcessingTime(now);
    try {
      reference.startBundle();
      fast.startBundle();
      for (int step = 0; step < steps; step++) {
        int action = bundleLength == 0 ? random.nextInt(10) : random.nextInt(100) < 96 ? 0 : 7;
        if (action == 7 && bundleLength > 0 && random.nextBoolean()) {
          action = 9;
        }
        String what;
        if (bundleLength > 0 && step > 0 && step % bundleLength == 0) {
          reference.finishBundle();
          fast.finishBundle();
          reference.startBundle();
          fast.startBundle();
        }
        if (action < 6) {
          String key =
              keyCount <= KEYS.length
                  ? KEYS[random.nextInt(keyCount)]
                  : "k" + random.nextInt(keyCount);
          long timestamp = Math.max(0, watermark + random.nextInt(50) - 20);
          long value = random.nextInt(100);
          Collection<BoundedWindow> windows = assign(windowFn, timestamp);
          WindowedValue<KV<String, Long>> element =
              WindowedValues.of(
                  KV.of(key, value), new Instant(timestamp), windows, PaneInfo.NO_FIRING);
          byte[] keyBytes = CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key);
          reference.setCurrentKey(keyBytes);
          reference.processElement(0, element);
          fast.setCurrentKey(keyBytes);
          fast.processElement(0, element);
          what = "element " + key + "@" + timestamp + " (watermark " + watermark + ")";
        } else if (action < 8) {
          watermark += 1 + random.nextInt(15);
          reference.advanceWatermark(watermark);
          fast.advanceWatermark(watermark);
          what = "watermark " + watermark;
        } else {
          now += 1 + random.nextInt(6);
          referenceContext.setProcessingTime(now);
          fastContext.setProcessingTime(now);
          reference.advanceProcessingTime(now);
          fast.advanceProcessingTime(now);
          what = "processing time " + now;
        }
        compare(
            referenceContext,
            fastContext,
            reference,
            fast,
            watermark,
            "step " + step + ": " + what);
        if (step == steps / 2 && n % 3 == 0) {
          // A snapshot, resumed by a new instance on another engine: mostly between bundles; every
          // sixth scenario in the middle of one, which must write back what the bundle holds.
          if (n % 6 != 0) {
            fast.finishBundle();
          }
          Path checkpoint = directory.resolve("checkpoint-" + n);
          TestOperatorContext.Snapshot snapshot = new TestOperatorContext.Snapshot(1, checkpoint);
          fast.snapshotState(snapshot);
          CompletableFuture.allOf(snapshot.asyncParts.toArray(new CompletableFuture<?>[0])).get();
          fast.close();
          String engine = n % 2 == 0 ? "rocksdb" : "lmdb";
          fast =
              new WatermarkTriggerGroupByKeyOperator<>(
                  new GroupByKeyOperator.Spec<>(
                      fastSpec.stepName(),
                      fastSpec.options(),
                      fastSpec.keyCoder(),
                      fastSpec.windowingStrategy(),
                      fastSpec.reduceFn(),
                      engine,
                      fastSpec.metrics()));
          fastContext =
              new TestOperatorContext(Files.createDirectories(directory.resolve("resumed-" + n)))
                  .restoringFrom(1, List.of(checkpoint))
                  .recordingAs(WatermarkTriggerGroupByKeyOperatorTest::describe);
          fastContext.setProcessingTime(now);
          fast.open(fastContext);
          fast.startBundle();
          compare(
              referenceContext, fastContext, reference, fast, watermark, "resumed on " + engine);
        }
      }
      reference.advanceWatermark(Long.MAX_VALUE);
      fast.advanceWatermark(Long.MAX_VALUE);
      compare(referenceContext, fastContext, reference, fast, Long.MAX_VALUE, "end of input");
      reference.finishBundle();
      fast.finishBundle();
    } finally {
      reference.close();
      fast.close();
    }
    for (MetricName counter :
        List.of(
            MetricName.named(
                LateDataDroppingDoFnRunner.class,
                LateDataDroppingDoFnRunner.DROPPED_DUE_TO_LATENESS),
            MetricName.named(ReduceFnRunner.class, ReduceFnRunner.DROPPED_DUE_TO_CLOSED_WINDOW))) {
      assertEquals(
          referenceSpec.metrics().container().getCounter(counter).getCumulative(),
          fastSpec.metrics().container().getCounter(counter).getCumulative(),
          counter.toString());
    }
  }

  private static void compare(
      TestOperatorContext referenceContext,
      TestOperatorContext fastContext,
      KeyedGroupingOperator<?, ?, ?> reference,
      KeyedGroupingOperator<?, ?, ?> fast,
      long inputWatermark,
      String step) {
    List<String> expected = sorted(referenceContext.emitted);
    List<String> actual = sorted(fastContext.emitted);
    referenceContext.emitted.clear();
    fastContext.emitted.clear();
    assertEquals(expected, actual, step + ": panes");
    // The output watermark is the input watermark held back by the holds (OperatorChain).
    assertEquals(
        Math.min(inputWatermark, reference.outputWatermarkHold()),
        Math.min(inputWatermark, fast.outputWatermarkHold()),
        step + ": output watermark");
    assertEquals(
        reference.nextProcessingTimeWakeup(), fast.nextProcessingTimeWakeup(), step + ": wakeup");
  }

  private static List<String> sorted(List<Object> emitted) {
    List<String> lines = new ArrayList<>();
    for (Object o : emitted) {
      lines.add((String) o);
    }
    lines.sort(null);
    return lines;
  }

  /** A pane as text, its values sorted, made while it is emitted. */
  private static Object describe(Object element) {
    @SuppressWarnings("unchecked")
    WindowedValue<KV<String, Object>> pane = (WindowedValue<KV<String, Object>>) element;
    Object output = pane.getValue().getValue();
    String values;
    if (output instanceof Iterable<?> iterable) {
      List<Long> list = new ArrayList<>();
      for (Object v : iterable) {
        list.add((Long) v);
      }
      list.sort(null);
      values = list.toString();
    } else {
      values = String.valueOf(output);
    }
    return pane.getValue().getKey()
        + " "
        + pane.getWindows()
        + " @"
        + pane.getTimestamp().getMillis()
        + " "
        + pane.getPaneInfo()
        + " "
        + values;
  }

  private static Collection<BoundedWindow> assign(WindowFn<Object, BoundedWindow> fn, long t)
      throws Exception {
    Instant timestamp = new Instant(t);
    return fn.assignWindows(
        fn.new AssignContext() {
          @Override
          public Object element() {
            return null;
          }

          @Override
          public Instant timestamp() {
            return timestamp;
          }

          @Override
          public BoundedWindow window() {
            return org.apache.beam.sdk.transforms.windowing.GlobalWindow.INSTANCE;
          }
        });
  }

  private static WindowingStrategy<?, ?> randomStrategy(Random random) {
    WindowFn<?, ?> windowFn =
        switch (random.nextInt(7)) {
          case 0, 1 -> FixedWindows.of(Duration.millis(10 + random.nextInt(20)));
          case 2 -> SlidingWindows.of(Duration.millis(20)).every(Duration.millis(10));
          case 3, 4, 5 -> Sessions.withGapDuration(Duration.millis(3 + random.nextInt(15)));
          default -> new GlobalWindows();
        };
    Trigger trigger;
    switch (windowFn instanceof GlobalWindows ? random.nextInt(6) : random.nextInt(4)) {
      case 0 -> trigger = DefaultTrigger.of();
      case 1 -> trigger = AfterWatermark.pastEndOfWindow();
      case 2 -> trigger = Repeatedly.forever(AfterWatermark.pastEndOfWindow());
      case 4, 5 -> trigger = Repeatedly.forever(randomSubTrigger(random));
      default -> {
        AfterWatermark.AfterWatermarkEarlyAndLate t =
            AfterWatermark.pastEndOfWindow().withEarlyFirings(randomSubTrigger(random));
        trigger = random.nextInt(4) == 0 ? t : t.withLateFirings(randomSubTrigger(random));
      }
    }
    WindowingStrategy<?, ?> strategy =
        WindowingStrategy.of(windowFn)
            .withTrigger(trigger)
            .withAllowedLateness(Duration.millis(new int[] {0, 5, 30}[random.nextInt(3)]))
            .withMode(
                random.nextBoolean()
                    ? AccumulationMode.DISCARDING_FIRED_PANES
                    : AccumulationMode.ACCUMULATING_FIRED_PANES)
            .withClosingBehavior(
                random.nextBoolean()
                    ? ClosingBehavior.FIRE_IF_NON_EMPTY
                    : ClosingBehavior.FIRE_ALWAYS)
            .withOnTimeBehavior(
                random.nextBoolean()
                    ? OnTimeBehavior.FIRE_ALWAYS
                    : OnTimeBehavior.FIRE_IF_NON_EMPTY);
    assertTrue(WatermarkTrigger.of(strategy).isPresent(), strategy::toString);
    return strategy;
  }

  private static OnceTrigger randomSubTrigger(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> Never.ever();
      case 1 -> AfterPane.elementCountAtLeast(1 + random.nextInt(3));
      case 2 -> AfterProcessingTime.pastFirstElementInPane();
      default ->
          AfterProcessingTime.pastFirstElementInPane()
              .plusDelayOf(Duration.millis(1 + random.nextInt(8)));
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static GroupByKeyOperator.Spec<String, Long, Object> spec(
      String name, WindowingStrategy<?, ?> strategy, boolean combining) {
    SystemReduceFn reduceFn =
        combining
            ? SystemReduceFn.combining(
                StringUtf8Coder.of(),
                AppliedCombineFn.withInputCoder(
                    Sum.ofLongs(),
                    org.apache.beam.sdk.coders.CoderRegistry.createDefault(),
                    KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
            : SystemReduceFn.buffering(VarLongCoder.of());
    return new GroupByKeyOperator.Spec<>(
        name,
        PipelineOptionsFactory.create(),
        StringUtf8Coder.of(),
        strategy,
        reduceFn,
        "heap",
        new OperatorMetrics(new MetricsContainerStepMap(), name));
  }
}
