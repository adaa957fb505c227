package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyedStepContextTest {
  @TempDir Path directory;

  @Test
  void givesTheKeyedStateTimersAndFinalizerOfItsOperator() {
    BundleFinalizers finalizers = new BundleFinalizers();
    try (KeyedStateContext<String> keyed =
        new KeyedStateContext<>(
            "heap", directory, StringUtf8Coder.of(), GlobalWindow.Coder.INSTANCE)) {
      KeyedStepContext step = new KeyedStepContext("Count", keyed, finalizers);
      assertSame(keyed.stateInternals, step.stateInternals());
      assertSame(keyed.timerInternals, step.timerInternals());
      assertSame(finalizers, step.bundleFinalizer());

      // What a DoFn writes through the step context is the operator's keyed state.
      keyed.setCurrentKey(new byte[] {1}, "a", new Instant(5));
      ValueState<Integer> count =
          step.stateInternals()
              .state(StateNamespaces.global(), StateTags.value("count", VarIntCoder.of()));
      count.write(3);
      assertEquals(
          3,
          keyed
              .stateInternals
              .state(StateNamespaces.global(), StateTags.value("count", VarIntCoder.of()))
              .read());
    }
  }

  @Test
  void aStepWithoutKeyedInputRefusesStateAndTimersByName() {
    KeyedStepContext step = new KeyedStepContext("Format", null, new BundleFinalizers());
    UnsupportedOperationException state =
        assertThrows(UnsupportedOperationException.class, step::stateInternals);
    assertEquals("Format uses state but its input is not keyed", state.getMessage());
    UnsupportedOperationException timers =
        assertThrows(UnsupportedOperationException.class, step::timerInternals);
    assertEquals("Format uses timers but its input is not keyed", timers.getMessage());
  }

  @Test
  void aStepWithoutFinalizerRefusesBundleFinalizationAsRunnersCoreDoes() {
    try (KeyedStateContext<String> keyed =
        new KeyedStateContext<>(
            "heap", directory, StringUtf8Coder.of(), GlobalWindow.Coder.INSTANCE)) {
      KeyedStepContext step = new KeyedStepContext("GroupByKey", keyed, null);
      assertThrows(UnsupportedOperationException.class, step::bundleFinalizer);
    }
  }
}
