package io.arcon.runner.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.beam.sdk.options.SdkHarnessOptions;
import org.apache.beam.sdk.options.SdkHarnessOptions.LogLevel;

/**
 * Applies a job's {@link SdkHarnessOptions} log levels ({@code --defaultSdkHarnessLogLevel}, {@code
 * --sdkHarnessLogLevelOverrides}) to {@code java.util.logging} while the job runs.
 *
 * <p>ArconRunner runs user code in its own JVM, so this JVM is the job's SDK harness and its JUL
 * loggers are the harness loggers (SLF4J, JCL, Log4j and Log4j2 reach them through the usual
 * bridges, as in Beam's Java SDK harness container). Levels are JVM-wide while several jobs may run
 * at once in one JVM, so the levels of all running jobs are merged — for each logger the most
 * verbose level any running job asks for wins — and every logger gets its own level back once no
 * running job configures it.
 */
public final class HarnessLogLevels {
  private static final String ROOT = "";

  /** The running jobs' requests, in start order. */
  private static final List<Lease> ACTIVE = new ArrayList<>();

  /**
   * Each configured logger's level before the first running job touched it; the map also keeps the
   * loggers strongly reachable, as JUL only holds them weakly and would forget their level.
   */
  private static final Map<String, Saved> ORIGINAL = new HashMap<>();

  private HarnessLogLevels() {}

  /** Starts applying the job's levels; {@link Lease#release} when the job has ended. */
  public static Lease apply(SdkHarnessOptions options) {
    Map<String, Level> requested = new HashMap<>();
    if (options.getDefaultSdkHarnessLogLevel() != null) {
      requested.put(ROOT, julLevel(options.getDefaultSdkHarnessLogLevel()));
    }
    if (options.getSdkHarnessLogLevelOverrides() != null) {
      options
          .getSdkHarnessLogLevelOverrides()
          .forEach((name, level) -> requested.put(name, julLevel(level)));
    }
    Lease lease = new Lease(Map.copyOf(requested));
    synchronized (HarnessLogLevels.class) {
      ACTIVE.add(lease);
      reapply(requested.keySet());
    }
    return lease;
  }

  private static Level julLevel(LogLevel level) {
    return LogLevel.LEVEL_CONFIGURATION.get(level);
  }

  /** Sets each of {@code names} to the merged level of the running jobs, or back to its own. */
  private static void reapply(Set<String> names) {
    for (String name : names) {
      Level merged = null;
      for (Lease lease : ACTIVE) {
        Level level = lease.levels.get(name);
        if (level != null && (merged == null || level.intValue() < merged.intValue())) {
          merged = level;
        }
      }
      if (merged != null) {
        Saved saved =
            ORIGINAL.computeIfAbsent(
                name,
                n -> {
                  Logger logger = Logger.getLogger(n);
                  return new Saved(logger, logger.getLevel());
                });
        saved.logger.setLevel(merged);
      } else {
        Saved saved = ORIGINAL.remove(name);
        if (saved != null) {
          saved.logger.setLevel(saved.level);
        }
      }
    }
  }

  private record Saved(Logger logger, Level level) {}

  /** One running job's log levels. */
  public static final class Lease {
    private final Map<String, Level> levels;
    private boolean released;

    private Lease(Map<String, Level> levels) {
      this.levels = levels;
    }

    /** The JUL level this job asks for per logger name ("" is the root logger). */
    public Map<String, Level> levels() {
      return levels;
    }

    /** Gives the job's loggers back to the other running jobs' levels or their own; idempotent. */
    public void release() {
      synchronized (HarnessLogLevels.class) {
        if (released) {
          return;
        }
        released = true;
        ACTIVE.remove(this);
        reapply(new LinkedHashSet<>(levels.keySet()));
      }
    }
  }
}
