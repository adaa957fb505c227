package io.arcon.tss.wire;

import com.google.protobuf.Timestamp;
import java.time.Instant;

/** Instant <-> protobuf Timestamp. */
public final class ProtoTime {
  private ProtoTime() {}

  public static Timestamp toProto(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  public static Instant toInstant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
