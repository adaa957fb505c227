package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.core.InMemoryStateInternals;
import org.apache.beam.runners.core.SideInputHandler;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Main input waiting for a windowed side input (10 ms fixed windows, main input in the same
 * windows): held per window until that window's pane arrives or the side input's watermark passes
 * it, then handed back in arrival order; a snapshot round trip keeps every held element.
 */
class PushedBackInputTest {
  private static final IntervalWindow FIRST = window(0);
  private static final IntervalWindow SECOND = window(10);

  @TempDir Path dir;

  private PCollectionView<Integer> view;
  private SideInputReadiness sideInputs;
  private PushedBackInput<Integer> input;
  private final List<String> processed = new ArrayList<>();

  @BeforeEach
  void setUp() {
    Pipeline p = Pipeline.create(PipelineOptionsFactory.create());
    view =
        p.apply(Create.of(1))
            .apply(Window.into(FixedWindows.of(Duration.millis(10))))
            .apply(View.asSingleton());
    sideInputs =
        new SideInputReadiness(
            new SideInputHandler(List.of(view), InMemoryStateInternals.<Void>forKey(null)),
            List.of(view));
    input = new PushedBackInput<>(sideInputs, List.of(view), VarIntCoder.of());
  }

  private static IntervalWindow window(long start) {
    return new IntervalWindow(new Instant(start), new Instant(start + 10));
  }

  private static WindowedValue<Integer> element(int value, long timestamp, BoundedWindow... in) {
    return WindowedValues.of(value, new Instant(timestamp), List.of(in), PaneInfo.NO_FIRING);
  }

  private void offer(int value, long timestamp, BoundedWindow... in) {
    input.offer(
        new byte[] {(byte) value},
        element(value, timestamp, in),
        (key, e) -> {
          assertEquals(1, e.getWindows().size(), "processed in one window at a time");
          assertEquals((byte) (int) e.getValue(), key[0]);
          processed.add(e.getValue() + "@" + e.getWindows().iterator().next());
        });
  }

  private List<Integer> takeReady() {
    List<Integer> values = new ArrayList<>();
    input.takeReady(
        (key, e) -> {
          assertEquals(1, e.getWindows().size());
          assertEquals((byte) (int) e.getValue(), key[0]);
          values.add(e.getValue());
        });
    return values;
  }

  @Test
  void elementsWaitPerWindowUntilItsPaneArrives() {
    offer(1, 5, FIRST);
    offer(2, 12, SECOND);
    offer(3, 3, FIRST);
    assertEquals(List.of(), processed);
    assertEquals(3, input.size());
    assertEquals(3, input.hold());
    assertEquals(List.of(), takeReady(), "no side input yet");

    sideInputs.add(view, WindowedValues.of(List.of(7), new Instant(9), FIRST, PaneInfo.NO_FIRING));
    assertEquals(List.of(1, 3), takeReady(), "the first window's elements, in arrival order");
    assertEquals(1, input.size());
    assertEquals(12, input.hold());

    // The first window is ready now: its new elements are processed at once.
    offer(4, 8, FIRST);
    assertEquals(List.of("4@" + FIRST), processed);
    assertEquals(1, input.size());
  }

  @Test
  void theSideInputWatermarkPassingAWindowMakesItReady() {
    offer(1, 5, FIRST);
    offer(2, 15, SECOND);
    sideInputs.advanceWatermark(view, 9);
    assertEquals(List.of(), takeReady(), "the first window ends at 9: not passed yet");
    sideInputs.advanceWatermark(view, 10);
    assertEquals(List.of(1), takeReady());
    assertEquals(15, input.hold());
    sideInputs.advanceWatermark(view, Long.MAX_VALUE);
    assertEquals(List.of(2), takeReady());
    assertTrue(input.isEmpty());
    assertEquals(Long.MAX_VALUE, input.hold());
  }

  @Test
  void anElementInSeveralWindowsIsProcessedInTheReadyOnesAndHeldInTheOthers() {
    sideInputs.add(view, WindowedValues.of(List.of(7), new Instant(9), FIRST, PaneInfo.NO_FIRING));
    offer(1, 5, FIRST, SECOND);
    assertEquals(List.of("1@" + FIRST), processed);
    assertEquals(1, input.size());
    sideInputs.add(
        view, WindowedValues.of(List.of(8), new Instant(19), SECOND, PaneInfo.NO_FIRING));
    assertEquals(List.of(1), takeReady());
  }

  @Test
  void aSnapshotKeepsEveryHeldElement() throws Exception {
    offer(1, 5, FIRST);
    offer(2, 12, SECOND);
    offer(3, 3, FIRST);
    var coder = WindowedValues.getFullCoder(VarIntCoder.of(), IntervalWindow.getCoder());
    SnapshotWriter out = new SnapshotWriter("test", 1);
    input.writeTo(out, coder);
    Path file = dir.resolve("held");
    out.writeTo(file);

    HeldElements<Integer> read = new HeldElements<>();
    read.readFrom(SnapshotReader.open(file, "test", 1), coder, 0, 0, 1);
    PushedBackInput<Integer> restored =
        new PushedBackInput<>(sideInputs, List.of(view), VarIntCoder.of());
    restored.restore(read.drain());
    assertEquals(3, restored.size());
    assertEquals(3, restored.hold());
    sideInputs.add(view, WindowedValues.of(List.of(7), new Instant(9), FIRST, PaneInfo.NO_FIRING));
    List<Integer> first = new ArrayList<>();
    restored.takeReady((key, e) -> first.add(e.getValue()));
    assertEquals(List.of(1, 3), first);
    assertEquals(12, restored.hold());
  }
}
