package io.arcon.state;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to open one backend instance.
 *
 * @param engine {@code heap}, {@code rocksdb} or {@code lmdb}
 * @param directory where a persistent engine keeps its files (ignored by heap); created if absent
 * @param options engine-specific tuning (e.g. {@code rocksdb.blockCacheBytes}); unknown keys are
 *     refused
 * @param owner whose state the backend holds, named in its errors (the runner gives the stateful
 *     transform's full name); null when nobody in particular
 */
public record StateBackendConfig(
    String engine, Path directory, Map<String, String> options, String owner) {
  public StateBackendConfig {
    options = Map.copyOf(options);
  }

  /** A backend whose errors name no owner. */
  public StateBackendConfig(String engine, Path directory, Map<String, String> options) {
    this(engine, directory, options, null);
  }

  public static StateBackendConfig of(String engine, Path directory) {
    return new StateBackendConfig(engine, directory, Map.of());
  }
}
