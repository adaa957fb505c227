package io.arcon.tss.server;

import java.time.Instant;

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
 * The {@code _full} area holds the complete rows of the last committed version of a DIFF TSS: the
 * next version's diff is computed against it. It starts with {@code _} so that readers globbing
 * {@code version=*} and Hive-style partition discovery skip it.
 *
 * <p>Paths are built as complete URI strings: a version directory contains ':' (ISO-8601 time),
 * which Hadoop's {@code Path(parent, child)} would misread as a URI scheme.
 */
final class LakeLayout {
  static final String COMMITTED = "_COMMITTED";
  static final String DEFINITION = "_definition.json";
  static final String FULL = "_full";
  static final String TRANSFORM = "transform";
  static final String PART = "part-0.parquet";

  private final String root;

  LakeLayout(String lake) {
    this.root = normalize(lake);
  }

  /**
   * A local directory becomes an absolute {@code file:} URI; a URI is kept (without a final '/').
   */
  static String normalize(String lake) {
    String uri;
    if (lake.matches("^[A-Za-z][A-Za-z0-9+.-]*:/.*")) {
      uri = lake;
    } else {
      uri = java.nio.file.Path.of(lake).toAbsolutePath().normalize().toUri().toString();
    }
    while (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1);
    }
    return uri;
  }

  String root() {
    return root;
  }

  static String versionDirName(Instant version) {
    return "version=" + version;
  }

  String tssDir(String tss) {
    return root + "/" + tss;
  }

  String definitionFile(String tss) {
    return tssDir(tss) + "/" + DEFINITION;
  }

  String versionDir(String tss, Instant version) {
    return tssDir(tss) + "/" + versionDirName(version);
  }

  String appDir(String tss, Instant version, String app) {
    return versionDir(tss, version) + "/" + app;
  }

  String stateFile(String tss, Instant version, String app, String state) {
    return appDir(tss, version, app) + "/" + state + "/" + PART;
  }

  String committedMarker(String tss, Instant version) {
    return versionDir(tss, version) + "/" + COMMITTED;
  }

  String transformFile(String tss, Instant version) {
    return versionDir(tss, version) + "/" + TRANSFORM + "/" + PART;
  }

  String fullVersionDir(String tss, Instant version) {
    return tssDir(tss) + "/" + FULL + "/" + versionDirName(version);
  }

  String fullStateFile(String tss, Instant version, String app, String state) {
    return fullVersionDir(tss, version) + "/" + app + "/" + state + "/" + PART;
  }
}
