package io.arcon.runner.operators;

import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Runners-core's {@link StepContext} of one operator instance: the state and timers of its {@link
 * KeyedStateContext} and its bundle finalizer. A step whose input is not keyed has no keyed
 * context; its DoFn then fails with a message naming the step on its first use of state or timers.
 */
final class KeyedStepContext implements StepContext {
  private final String stepName;
  private final KeyedStateContext<?> keyed;
  private final DoFn.BundleFinalizer finalizer;

  /**
   * @param keyed the step's keyed state and timers, or {@code null} when its input is not keyed
   * @param finalizer where the step's DoFn registers bundle-finalization callbacks, or {@code null}
   *     when the step has none (runners-core's default then refuses)
   */
  KeyedStepContext(String stepName, KeyedStateContext<?> keyed, DoFn.BundleFinalizer finalizer) {
    this.stepName = stepName;
    this.keyed = keyed;
    this.finalizer = finalizer;
  }

  @Override
  public StateInternals stateInternals() {
    if (keyed == null) {
      throw new UnsupportedOperationException(stepName + " uses state but its input is not keyed");
    }
    return keyed.stateInternals;
  }

  @Override
  public TimerInternals timerInternals() {
    if (keyed == null) {
      throw new UnsupportedOperationException(stepName + " uses timers but its input is not keyed");
    }
    return keyed.timerInternals;
  }

  @Override
  public DoFn.BundleFinalizer bundleFinalizer() {
    return finalizer != null ? finalizer : StepContext.super.bundleFinalizer();
  }
}
