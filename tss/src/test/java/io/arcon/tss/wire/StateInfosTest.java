package io.arcon.tss.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.StateKind;
import org.junit.jupiter.api.Test;

class StateInfosTest {
  private static final StateDescriptor CLICKS =
      new StateDescriptor(
          "Count.clicks",
          "Count",
          "clicks",
          StateKind.BAG,
          new StateSchema(FieldType.STRING, new ListType(FieldType.INT64)),
          "rocksdb",
          Consistency.EXACT);

  @Test
  void aStateDescriptorSurvivesItsProtobufForm() {
    StateInfo info = StateInfos.toProto(CLICKS);
    assertEquals("Count.clicks", info.getName());
    assertEquals("clicks", info.getStateId());
    assertEquals(StateKind.BAG, info.getKind());
    assertEquals(Consistency.EXACT, info.getConsistency());
    assertEquals(FieldType.STRING, TypeSpecs.fromProto(info.getKeyType()));
    assertEquals(CLICKS, StateInfos.fromProto(info));
  }

  @Test
  void unknownKindsReadAsUnspecifiedAndAMissingTypeIsRefused() {
    StateInfo newer =
        StateInfos.toProto(CLICKS).toBuilder().setKindValue(99).setConsistencyValue(42).build();
    StateDescriptor read = StateInfos.fromProto(newer);
    assertEquals(StateKind.STATE_KIND_UNSPECIFIED, read.kind());
    assertEquals(Consistency.CONSISTENCY_UNSPECIFIED, read.consistency());
    assertThrows(
        IllegalArgumentException.class,
        () -> StateInfos.fromProto(StateInfos.toProto(CLICKS).toBuilder().clearKeyType().build()));
  }
}
