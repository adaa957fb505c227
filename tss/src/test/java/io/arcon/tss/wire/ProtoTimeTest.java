package io.arcon.tss.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProtoTimeTest {
  /**
   * Beam's {@code BoundedWindow.TIMESTAMP_MIN_VALUE} and {@code TIMESTAMP_MAX_VALUE}, in millis.
   */
  private static final Instant BEAM_MIN = Instant.ofEpochMilli(-9223372036854775L);

  private static final Instant BEAM_MAX = Instant.ofEpochMilli(9223372036854775L);

  @Test
  void instantsInsideTheRangeRoundTripExactly() {
    for (Instant instant :
        new Instant[] {
          Instant.parse("2026-12-06T06:33:24.123456789Z"),
          Instant.EPOCH,
          Instant.parse("1969-12-31T23:59:59.999Z"),
          ProtoTime.MIN,
          ProtoTime.MAX
        }) {
      assertEquals(instant, ProtoTime.toInstant(ProtoTime.toProto(instant)));
    }
  }

  @Test
  void beamsBoundsAreClampedToValidTimestamps() throws Exception {
    Timestamp min = ProtoTime.toProto(BEAM_MIN);
    Timestamp max = ProtoTime.toProto(BEAM_MAX);
    assertTrue(Timestamps.isValid(min));
    assertTrue(Timestamps.isValid(max));
    assertEquals(ProtoTime.MIN, ProtoTime.toInstant(min));
    assertEquals(ProtoTime.MAX, ProtoTime.toInstant(max));
    // What the control plane's catalog does with them: print as JSON (refused when invalid).
    assertEquals("\"0001-01-01T00:00:00Z\"", JsonFormat.printer().print(min));
    assertEquals("\"9999-12-31T23:59:59.999999999Z\"", JsonFormat.printer().print(max));
    assertEquals(ProtoTime.MIN, ProtoTime.toInstant(ProtoTime.toProto(Instant.MIN)));
  }
}
