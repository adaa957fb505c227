package io.arcon.tss.wire;

import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.StateKind;

/**
 * A {@link StateDescriptor} <-> its protobuf form {@link StateInfo}: what an agent registers and
 * what the control plane keeps and shows in {@code DESCRIBE APP}.
 */
public final class StateInfos {
  private StateInfos() {}

  public static StateInfo toProto(StateDescriptor state) {
    return StateInfo.newBuilder()
        .setName(state.name())
        .setTransform(state.transform())
        .setStateId(state.stateId())
        .setKind(state.kind())
        .setKeyType(TypeSpecs.toProto(state.schema().keyType()))
        .setValueType(TypeSpecs.toProto(state.schema().valueType()))
        .setBackend(state.backend())
        .setConsistency(state.consistency())
        .build();
  }

  /**
   * Kinds and consistency levels this build does not know (a newer agent) read as unspecified.
   *
   * @throws IllegalArgumentException if a type spec is incomplete (an app sent a malformed catalog)
   */
  public static StateDescriptor fromProto(StateInfo state) {
    return new StateDescriptor(
        state.getName(),
        state.getTransform(),
        state.getStateId(),
        state.getKind() == StateKind.UNRECOGNIZED
            ? StateKind.STATE_KIND_UNSPECIFIED
            : state.getKind(),
        new StateSchema(
            TypeSpecs.fromProto(state.getKeyType()), TypeSpecs.fromProto(state.getValueType())),
        state.getBackend(),
        state.getConsistency() == Consistency.UNRECOGNIZED
            ? Consistency.CONSISTENCY_UNSPECIFIED
            : state.getConsistency());
  }
}
