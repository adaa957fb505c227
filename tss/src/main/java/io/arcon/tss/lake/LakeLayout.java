package io.arcon.tss.lake;

import io.arcon.tss.model.Names;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a TSS's files live in the lake (DESIGN §6):
 *
 * <pre>
 * &lt;lake&gt;/&lt;tss&gt;/_definition.json
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/&lt;app&gt;/&lt;state&gt;/part-0.parquet
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/transform/part-0.parquet     (TRANSFORM)
 * &lt;lake&gt;/&lt;tss&gt;/version=&lt;T&gt;/_COMMITTED                    (written last)
 * &lt;lake&gt;/&lt;tss&gt;/_full/version=&lt;T&gt;/&lt;app&gt;/&lt;state&gt;/part-0.parquet  (DIFF staging)
 * </pre>
 *
 * {@code T} is ISO-8601 UTC ({@link Instant#toString()}, e.g. {@code 2026-12-02T13:00:00Z}).
 *
 * <p>Part files are {@code part-<n>.parquet}, counted from 0. Writers write one part per state and
 * version, {@code part-0.parquet}; readers take every {@code part-*.parquet} (DESIGN §6), so a
 * state split into several parts reads the same.
 *
 * <p>The {@code _full} area holds the complete rows of the last committed version of a DIFF TSS:
 * the next version's diff is computed against it. It starts with {@code _} so that readers globbing
 * {@code version=*} and Hive-style partition discovery skip it.
 *
 * <p>Paths are built as complete URI strings: a version directory contains ':' (ISO-8601 time),
 * which Hadoop's {@code Path(parent, child)} would misread as a URI scheme. Every app, TSS and
 * state name is checked with {@link Names} before it becomes a path segment, so no {@code /} or
 * {@code ..} can reach a path.
 */
public final class LakeLayout {
  public static final String DEFINITION = "_definition.json";
  public static final String COMMITTED = "_COMMITTED";
  public static final String FULL = "_full";
  public static final String TRANSFORM = "transform";
  private static final String VERSION_PREFIX = "version=";
  private static final Pattern PART_FILE = Pattern.compile("part-.*\\.parquet");

  private final String root;

  /**
   * @param lake a local directory (made an absolute {@code file:} URI) or any Hadoop file-system
   *     URI
   */
  public LakeLayout(String lake) {
    this.root = normalize(Objects.requireNonNull(lake, "lake"));
  }

  /** The lake of a local directory. */
  public static LakeLayout local(Path lake) {
    return new LakeLayout(lake.toAbsolutePath().normalize().toUri().toString());
  }

  /**
   * A local directory becomes an absolute {@code file:} URI; a URI is kept (without a final '/').
   */
  public static String normalize(String lake) {
    String uri;
    if (lake.matches("^[A-Za-z][A-Za-z0-9+.-]*:/.*")) {
      uri = lake;
    } else {
      uri = Path.of(lake).toAbsolutePath().normalize().toUri().toString();
    }
    while (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1);
    }
    return uri;
  }

  public String root() {
    return root;
  }

  /** {@code version=<T>}: the directory name of a version. */
  public static String versionDirName(Instant version) {
    return VERSION_PREFIX + Objects.requireNonNull(version, "version");
  }

  /** The version time of a {@code version=<T>} directory name; empty for any other name. */
  public static Optional<Instant> versionOf(String dirName) {
    if (!dirName.startsWith(VERSION_PREFIX)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(dirName.substring(VERSION_PREFIX.length())));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** {@code part-<index>.parquet}. */
  public static String partFileName(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("Part number " + index + " is negative; count from 0");
    }
    return "part-" + index + ".parquet";
  }

  /** Whether a file name is a part file ({@code part-*.parquet}), as readers take them. */
  public static boolean isPartFile(String fileName) {
    return PART_FILE.matcher(fileName).matches();
  }

  /**
   * The file a writer writes for one state, inside the directory of its app in a version (the
   * {@code target_directory} of an extraction assignment, {@link #appDir}).
   */
  public static String stateFileIn(String appDir, String state) {
    return appDir + "/" + Names.requireValidState(state) + "/" + partFileName(0);
  }

  public String tssDir(String tss) {
    return root + "/" + Names.requireValid(tss, "TSS");
  }

  public String definitionFile(String tss) {
    return tssDir(tss) + "/" + DEFINITION;
  }

  public String versionDir(String tss, Instant version) {
    return tssDir(tss) + "/" + versionDirName(version);
  }

  public String appDir(String tss, Instant version, String app) {
    return versionDir(tss, version) + "/" + Names.requireValid(app, "app");
  }

  public String stateDir(String tss, Instant version, String app, String state) {
    return appDir(tss, version, app) + "/" + Names.requireValidState(state);
  }

  /** The one part file a writer writes for a state at a version. */
  public String stateFile(String tss, Instant version, String app, String state) {
    return stateFileIn(appDir(tss, version, app), state);
  }

  public String committedMarker(String tss, Instant version) {
    return versionDir(tss, version) + "/" + COMMITTED;
  }

  public String transformFile(String tss, Instant version) {
    return versionDir(tss, version) + "/" + TRANSFORM + "/" + partFileName(0);
  }

  /** The hidden DIFF staging area of a TSS. */
  public String fullDir(String tss) {
    return tssDir(tss) + "/" + FULL;
  }

  public String fullVersionDir(String tss, Instant version) {
    return fullDir(tss) + "/" + versionDirName(version);
  }

  public String fullStateFile(String tss, Instant version, String app, String state) {
    return stateFileIn(fullVersionDir(tss, version) + "/" + Names.requireValid(app, "app"), state);
  }
}
