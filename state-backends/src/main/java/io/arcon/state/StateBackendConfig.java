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
 */
public record StateBackendConfig(String engine, Path directory, Map<String, String> options) {
  public StateBackendConfig {
    options = Map.copyOf(options);
  }

  public static StateBackendConfig of(String engine, Path directory) {
    return new StateBackendConfig(engine, directory, Map.of());
  }
}
