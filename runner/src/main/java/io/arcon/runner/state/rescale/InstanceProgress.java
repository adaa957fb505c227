package io.arcon.runner.state.rescale;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.StateBackend;
import java.nio.charset.StandardCharsets;

/**
 * What a keyed operator instance knows beyond its keys' state: its input watermark, stored in its
 * backend (table {@value #TABLE}, row {@code input_watermark} → 8-byte big-endian millis) so that
 * it is part of every snapshot. After a restore it decides which elements are late and which timers
 * already fired, exactly as before the failure.
 */
public final class InstanceProgress {
  public static final String TABLE = "operator_progress";

  static final byte[] INPUT_WATERMARK_KEY = "input_watermark".getBytes(StandardCharsets.UTF_8);

  private InstanceProgress() {}

  /** Records {@code watermarkMillis} as the instance's input watermark. */
  public static void writeInputWatermark(StateBackend backend, long watermarkMillis) {
    backend.table(TABLE).put(INPUT_WATERMARK_KEY, encode(watermarkMillis));
  }

  /** The recorded input watermark, or {@link Long#MIN_VALUE} when none was recorded. */
  public static long inputWatermark(StateBackend backend) {
    if (!backend.tableNames().contains(TABLE)) {
      return Long.MIN_VALUE;
    }
    byte[] stored = backend.table(TABLE).get(INPUT_WATERMARK_KEY);
    return stored == null ? Long.MIN_VALUE : OrderedBytes.readRawLong(stored, 0);
  }

  static byte[] encode(long millis) {
    return new OrderedBytes(8).writeRawLong(millis).toByteArray();
  }
}
