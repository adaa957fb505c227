package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.MapState;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class StateAddressTest {
  @Test
  void parsesRowsWrittenByTheStateInternals() {
    try (StateBackend backend = TestBackends.open("heap", null)) {
      BackendStateInternals<String> internals =
          new BackendStateInternals<>(backend, StringUtf8Coder.of());
      internals.setKey("user-1");
      internals.setEventTime(new Instant(42));
      internals
          .state(StateNamespaces.global(), StateTags.value("count", VarIntCoder.of()))
          .write(3);
      MapState<String, Integer> map =
          internals.state(
              StateNamespaces.global(),
              StateTags.map("byPage", StringUtf8Coder.of(), VarIntCoder.of()));
      map.put("home", 1);

      List<StateEntry> rows = new ArrayList<>();
      try (CloseableIterator<StateEntry> it =
          backend.table(BackendStateInternals.STATE_TABLE).iterator()) {
        it.forEachRemaining(rows::add);
      }
      assertEquals(2, rows.size());
      for (StateEntry row : rows) {
        StateAddress address = StateAddress.parse(row.key());
        assertArrayEquals(internals.getEncodedKey(), address.encodedKey());
        assertEquals(StateNamespaces.global().stringKey(), address.namespace());
        assertEquals(42, StateAddress.updatedAtMillis(row.value()));
        if (address.stateId().equals("byPage")) {
          assertEquals(BackendState.ELEMENT_MARKER, row.key()[address.suffixOffset()]);
          assertEquals(
              "home",
              StateCoding.decode(StringUtf8Coder.of(), row.key(), address.suffixOffset() + 1));
        } else {
          assertEquals("count", address.stateId());
          assertEquals(row.key().length, address.suffixOffset());
        }
      }
    }
  }

  @Test
  void refusesBytesThatAreNotAStateRow() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StateAddress.parse(new byte[] {0, 0, 0, 9, 1, 2}));
    assertTrue(e.getMessage().contains("Not a state row key"));
    assertThrows(
        IllegalArgumentException.class,
        () -> StateAddress.updatedAtMillis("x".getBytes(StandardCharsets.UTF_8)));
  }
}
