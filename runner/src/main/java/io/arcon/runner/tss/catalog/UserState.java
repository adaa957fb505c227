package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import org.apache.beam.sdk.coders.Coder;

/**
 * One exported user state: a {@code @StateId} of a stateful DoFn.
 *
 * @param name the canonical name {@code EXTRACT} accepts ({@link StateNames})
 * @param transformFullName the full name of the transform declaring it
 * @param stateId the {@code @StateId} as declared
 * @param kind value, bag, set, map, multimap, ordered list or combining
 * @param consistency {@code EXACT} or {@code WATERMARK_CUT}
 * @param backend the transform's state backend
 * @param keyCoder the transform's key coder
 * @param value how a cell's value is exported
 * @param key how the keys are exported
 */
public record UserState(
    String name,
    String transformFullName,
    String stateId,
    StateKind kind,
    Consistency consistency,
    String backend,
    Coder<?> keyCoder,
    StateValueMapping value,
    KeyMapping key) {

  /** The state as the control plane lists it ({@code DESCRIBE APP}). */
  public StateDescriptor descriptor() {
    return new StateDescriptor(
        name,
        transformFullName,
        stateId,
        kind,
        new StateSchema(key.type(), value.type()),
        backend,
        consistency);
  }
}
