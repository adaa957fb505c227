package io.arcon.tss.write;

import io.arcon.tss.model.Names;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * Paths of the TSS lake (DESIGN §6):
 *
 * <pre>
 * &lt;lake&gt;/&lt;tss&gt;/_definition.json
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/&lt;app&gt;/&lt;state&gt;/part-NNNNN.parquet
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/transform/part-0.parquet
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/_COMMITTED
 * </pre>
 *
 * <p>{@code T} is ISO-8601 UTC ({@link DateTimeFormatter#ISO_INSTANT}, e.g. {@code
 * 2026-12-02T13:00:00Z}). Every name is checked against {@code [A-Za-z_][A-Za-z0-9_]*} (a state
 * name may be {@code Transform.stateId}: identifiers joined by dots), so no {@code /} or {@code ..}
 * can ever reach a path.
 */
public final class LakeLayout {
  private LakeLayout() {}

  public static String tssDir(String lake, String tss) {
    return trimSlash(lake) + "/" + checkName("TSS", tss);
  }

  public static String definitionFile(String lake, String tss) {
    return tssDir(lake, tss) + "/_definition.json";
  }

  /** {@code version=<T>}: the directory name of a version. */
  public static String versionDirName(Instant version) {
    return "version=" + DateTimeFormatter.ISO_INSTANT.format(version);
  }

  public static String versionDir(String lake, String tss, Instant version) {
    return tssDir(lake, tss) + "/" + versionDirName(Objects.requireNonNull(version, "version"));
  }

  public static String stateDir(
      String lake, String tss, Instant version, String app, String state) {
    return versionDir(lake, tss, version)
        + "/"
        + checkName("app", app)
        + "/"
        + checkStateName(state);
  }

  /** {@code part-NNNNN.parquet} inside {@link #stateDir}. */
  public static String partFile(
      String lake, String tss, Instant version, String app, String state, int part) {
    if (part < 0) {
      throw new IllegalArgumentException("Part number " + part + " is negative; count from 0");
    }
    return stateDir(lake, tss, version, app, state) + String.format("/part-%05d.parquet", part);
  }

  public static String transformFile(String lake, String tss, Instant version) {
    return versionDir(lake, tss, version) + "/transform/part-0.parquet";
  }

  public static String committedMarker(String lake, String tss, Instant version) {
    return versionDir(lake, tss, version) + "/_COMMITTED";
  }

  /** Checks an app or TSS name. */
  public static String checkName(String what, String name) {
    return Names.requireValid(name, what);
  }

  /** Checks a state name: {@code stateId} or {@code Transform.stateId}. */
  public static String checkStateName(String name) {
    return Names.requireValidState(name);
  }

  private static String trimSlash(String lake) {
    Objects.requireNonNull(lake, "lake");
    if (lake.isEmpty()) {
      throw new IllegalArgumentException("The lake path is empty; give a directory or URI");
    }
    return lake.endsWith("/") && lake.length() > 1 ? lake.substring(0, lake.length() - 1) : lake;
  }
}
