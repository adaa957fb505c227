package io.arcon.tss.write;

import io.arcon.tss.proto.Consistency;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The key-value metadata every Parquet file of a version carries in its footer, so that a reader
 * holding only the file knows what it is and how far to trust it: {@code arcon.app}, {@code
 * arcon.state}, {@code arcon.version} and {@code arcon.consistency} ({@code exact}: exactly the
 * updates with event time &lt; T; {@code watermark_cut}: the state when the watermark passed T).
 */
public final class OutputMetadata {
  public static final String APP = "arcon.app";
  public static final String STATE = "arcon.state";
  public static final String VERSION = "arcon.version";
  public static final String CONSISTENCY = "arcon.consistency";

  public static final String EXACT = "exact";
  public static final String WATERMARK_CUT = "watermark_cut";

  private OutputMetadata() {}

  /** The metadata of one state's file at one version. */
  public static Map<String, String> ofState(
      String app, String state, Instant version, Consistency consistency) {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put(APP, app);
    meta.put(STATE, state);
    meta.put(VERSION, version.toString());
    meta.put(CONSISTENCY, consistencyValue(consistency));
    return meta;
  }

  /**
   * The metadata of a TRANSFORM result: {@code exact} only if every input is.
   *
   * @param inputConsistencies the {@link #CONSISTENCY} values of the input files; a file without
   *     one counts as a watermark cut
   */
  public static Map<String, String> ofTransform(
      Instant version, Collection<String> inputConsistencies) {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put(VERSION, version.toString());
    boolean exact = inputConsistencies.stream().allMatch(EXACT::equals);
    meta.put(CONSISTENCY, exact ? EXACT : WATERMARK_CUT);
    return meta;
  }

  /**
   * {@code exact} for {@link Consistency#EXACT}; anything else is at best a watermark cut, so an
   * unspecified level claims no more than that.
   */
  public static String consistencyValue(Consistency consistency) {
    return consistency == Consistency.EXACT ? EXACT : WATERMARK_CUT;
  }

  /** The entries of {@code footer} under these keys: what a rewrite of the file must keep. */
  public static Map<String, String> carried(Map<String, String> footer) {
    Map<String, String> meta = new LinkedHashMap<>();
    for (String key : new String[] {APP, STATE, VERSION, CONSISTENCY}) {
      String value = footer.get(key);
      if (value != null) {
        meta.put(key, value);
      }
    }
    return meta;
  }
}
