package io.arcon.runner.state;

import io.arcon.state.StateBackends;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job's tuning of state engines, from {@code --stateBackendOptions}: comma-separated {@code
 * key=value} pairs such as {@code rocksdb.rowCacheMaxBytes=67108864,lmdb.mapSizeBytes=...}, given
 * to every backend the job opens (each engine reads its own keys). Refused before the job starts
 * when a pair is malformed, a key is unknown or a value is out of range.
 */
public final class StateBackendTuning {
  private static final String OPTION = "--stateBackendOptions";

  private StateBackendTuning() {}

  /**
   * The options {@code text} gives; empty for null or blank.
   *
   * @throws IllegalArgumentException naming the option, the bad pair or key and what is allowed
   */
  public static Map<String, String> parse(String text) {
    if (text == null || text.isBlank()) {
      return Map.of();
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      String trimmed = pair.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      int eq = trimmed.indexOf('=');
      if (eq <= 0 || eq == trimmed.length() - 1) {
        throw new IllegalArgumentException(
            OPTION
                + ": '"
                + trimmed
                + "' is not key=value. Give comma-separated pairs, e.g. "
                + OPTION
                + "=rocksdb.rowCacheBytes=16777216,rocksdb.rowCacheMaxBytes=268435456");
      }
      String key = trimmed.substring(0, eq).trim();
      String value = trimmed.substring(eq + 1).trim();
      if (options.put(key, value) != null) {
        throw new IllegalArgumentException(OPTION + ": '" + key + "' is given twice");
      }
    }
    try {
      StateBackends.validateOptions(options);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(OPTION + ": " + e.getMessage(), e);
    }
    return Map.copyOf(options);
  }
}
