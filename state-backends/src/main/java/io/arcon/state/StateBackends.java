package io.arcon.state;

import io.arcon.state.heap.HeapStateBackend;
import io.arcon.state.lmdb.LmdbOptions;
import io.arcon.state.lmdb.LmdbStateBackend;
import io.arcon.state.rocksdb.RocksDbOptions;
import io.arcon.state.rocksdb.RocksDbStateBackend;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The registry of state engines: the one place that turns a {@link StateBackendConfig} into a
 * backend.
 */
public final class StateBackends {
  private StateBackends() {}

  /** Every engine name {@link #open} accepts, in the order they are documented. */
  public static final List<String> ENGINES = List.of("heap", "rocksdb", "lmdb");

  /**
   * Opens a backend of {@code config.engine()}.
   *
   * <p>Every option key is validated against every engine (not only the chosen one), so one options
   * map can be shared by transforms that use different engines while a typo in any key is still
   * refused.
   *
   * @throws IllegalArgumentException for an unknown engine, an unknown option key or a bad value
   */
  public static StateBackend open(StateBackendConfig config) {
    Objects.requireNonNull(config, "config");
    String engine = config.engine();
    if (engine == null || !ENGINES.contains(engine)) {
      throw new IllegalArgumentException(
          "Unknown state backend '" + engine + "'. Valid engines: " + String.join(", ", ENGINES));
    }
    Map<String, String> options = config.options();
    // validateOptions' checks, without parsing twice: every engine's options are parsed here, so
    // a bad value is refused even when that engine is not used.
    validateOptionKeys(options);
    RocksDbOptions rocksDbOptions = RocksDbOptions.parse(options);
    LmdbOptions lmdbOptions = LmdbOptions.parse(options);
    return switch (engine) {
      case "heap" -> new HeapStateBackend();
      case "rocksdb" -> new RocksDbStateBackend(requireDirectory(config), rocksDbOptions);
      case "lmdb" -> new LmdbStateBackend(requireDirectory(config), lmdbOptions, config.owner());
      default -> throw new IllegalStateException("Engine listed but not wired: " + engine);
    };
  }

  /**
   * Refuses an options map that {@link #open} would refuse, whatever the engine: an unknown key or
   * a bad value of any engine's key. For checking a job's options before any backend opens.
   *
   * @throws IllegalArgumentException naming the key and what is allowed
   */
  public static void validateOptions(Map<String, String> options) {
    validateOptionKeys(options);
    // Every engine's options, so a bad value is refused even when that engine is not used.
    RocksDbOptions.parse(options);
    LmdbOptions.parse(options);
  }

  /** Every option key any engine understands, sorted. */
  public static List<String> validOptionKeys() {
    TreeSet<String> keys = new TreeSet<>();
    keys.addAll(RocksDbOptions.KEYS);
    keys.addAll(LmdbOptions.KEYS);
    return List.copyOf(keys);
  }

  private static void validateOptionKeys(Map<String, String> options) {
    List<String> valid = validOptionKeys();
    TreeSet<String> unknown = new TreeSet<>();
    for (String key : options.keySet()) {
      if (!valid.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "Unknown state backend option"
              + (unknown.size() > 1 ? "s " : " ")
              + unknown
              + ". Valid option keys: "
              + String.join(", ", valid)
              + " (the heap engine has no options)");
    }
  }

  private static java.nio.file.Path requireDirectory(StateBackendConfig config) {
    if (config.directory() == null) {
      throw new IllegalArgumentException(
          "The "
              + config.engine()
              + " state backend keeps its files on disk and needs a directory; "
              + "set StateBackendConfig.directory");
    }
    return config.directory();
  }
}
