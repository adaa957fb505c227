package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.arcon.runtime.graph.KeyedElement;
import java.util.List;
import org.apache.beam.runners.core.KeyedWorkItem;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class ToKeyedWorkItemOperatorTest {

  /** As the runtime delivers from a keyed edge: the key first, then the unwrapped element. */
  @Test
  void emitsAWorkItemKeyedByTheBytesItsInputArrivedWith() {
    TestOperatorContext context = new TestOperatorContext(null);
    ToKeyedWorkItemOperator op = new ToKeyedWorkItemOperator();
    op.open(context);
    IntervalWindow window = new IntervalWindow(new Instant(0), new Instant(10));
    byte[] keyA = {1, 2};
    byte[] keyB = {3};
    op.setCurrentKey(keyA);
    op.processElement(
        0, WindowedValues.of(KV.of("a", 1), new Instant(4), window, PaneInfo.NO_FIRING));
    op.setCurrentKey(keyB);
    op.processElement(
        0, WindowedValues.of(KV.of("b", 2), new Instant(6), window, PaneInfo.NO_FIRING));

    assertEquals(2, context.emitted.size());
    KeyedElement first = assertInstanceOf(KeyedElement.class, context.emitted.get(0));
    KeyedElement second = assertInstanceOf(KeyedElement.class, context.emitted.get(1));
    assertArrayEquals(keyA, first.keyBytes());
    assertArrayEquals(keyB, second.keyBytes());

    @SuppressWarnings("unchecked")
    WindowedValue<KeyedWorkItem<String, Integer>> item =
        (WindowedValue<KeyedWorkItem<String, Integer>>) first.element();
    assertEquals(List.of(GlobalWindow.INSTANCE), List.copyOf(item.getWindows()));
    assertEquals(new Instant(4), item.getTimestamp());
    assertEquals("a", item.getValue().key());
    WindowedValue<Integer> inner = item.getValue().elementsIterable().iterator().next();
    assertEquals(1, inner.getValue());
    assertEquals(List.of(window), List.copyOf(inner.getWindows()), "the element keeps its window");
  }
}
