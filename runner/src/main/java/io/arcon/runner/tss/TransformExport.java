package io.arcon.runner.tss;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runtime.operator.OperatorContext;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.state.StateSpec;

/**
 * What one stateful ParDo exports to TSS, decided at translation: its user states ({@code @StateId}
 * to finished StateSpec) and whether they are exact (input sorted by event time, writes dated by
 * the element or timer that caused them) or watermark cuts. Each parallel instance opens its own
 * {@link InstanceExport}.
 *
 * @param transform the transform's full name
 * @param exact whether the transform's states are exact
 * @param specs the DoFn's user states by state id
 */
public record TransformExport(
    String transform, boolean exact, Map<String, StateSpec<?>> specs, TssLink link) {

  /**
   * Starts recording the version chains of this transform's states in {@code internals} and makes
   * the instance readable by the pipeline's TSS agent.
   *
   * @param inputWatermark the operator's current input watermark (dates writes of watermark-cut
   *     states)
   */
  public InstanceExport openInstance(
      BackendStateInternals<?> internals, OperatorContext context, LongSupplier inputWatermark) {
    return new InstanceExport(this, internals, context, inputWatermark);
  }
}
