package io.arcon.tss.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One cell of an exported state: the value of a key in a window, and when it was last updated
 * (event time; always before the version time it is exported in).
 *
 * <p>Java values by {@link FieldType}: STRING {@link String}, INT32 {@link Integer}, INT64 {@link
 * Long}, FLOAT {@link Float}, DOUBLE {@link Double}, BOOLEAN {@link Boolean}, BYTES {@code byte[]},
 * TIMESTAMP {@link Instant}, {@link ListType} {@link java.util.List}, {@link MapType} {@link
 * java.util.Map}, {@link RowType} a {@link java.util.List} of field values in field order, {@link
 * OpaqueType} {@link OpaqueValue}.
 *
 * @param key the state key (may be {@code null} only if the schema's key is nullable)
 * @param window the window, or {@code null} for the global window
 * @param value the value; {@code null} for a DIFF tombstone
 * @param updatedAt the event time of the last update of this cell
 */
public record StateRow(Object key, WindowBounds window, Object value, Instant updatedAt) {
  public StateRow {
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** True if the row belongs to Beam's global window. */
  public boolean isGlobalWindow() {
    return window == null;
  }
}
