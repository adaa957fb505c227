package io.arcon.tss.write;

/**
 * Names of the columns of every exported version file.
 *
 * <p>Window convention: an interval window {@code [start, end)} fills {@code window_start} and
 * {@code window_end}; Beam's global window leaves both {@code null}. A row never has only one of
 * them set.
 */
public final class Columns {
  public static final String KEY = "key";
  public static final String WINDOW_START = "window_start";
  public static final String WINDOW_END = "window_end";
  public static final String VALUE = "value";
  public static final String UPDATED_AT = "updated_at";
  public static final String VERSION = "version";

  /** Only in DIFF files: {@code insert}, {@code update} or {@code delete}. */
  public static final String OP = "op";

  /** Field names of an {@link io.arcon.tss.model.OpaqueType} value's group/struct. */
  public static final String OPAQUE_BYTES = "bytes";

  public static final String OPAQUE_READABLE = "readable";

  private Columns() {}
}
