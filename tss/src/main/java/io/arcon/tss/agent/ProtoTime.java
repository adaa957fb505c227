package io.arcon.tss.agent;

import com.google.protobuf.Timestamp;
import java.time.Instant;

/** Instant <-> protobuf Timestamp, shared by the agent and the control plane. */
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
