package io.arcon.runner.progress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The checked progress options of one job.
 *
 * @param enabled whether progress lines are printed ({@code --progress}, with auto resolved)
 * @param periodMillis {@code --progressPeriodMillis}
 * @param out where the lines go: the options' stream, else stderr
 */
public record ProgressSettings(boolean enabled, long periodMillis, PrintStream out) {
  static final long MIN_PERIOD_MILLIS = 100;

  /**
   * Checks the options; throws {@link IllegalArgumentException} saying what is wrong and what to
   * do. {@code auto} means on when this JVM has a console (stdin and stdout are terminals).
   */
  public static ProgressSettings of(ProgressOptions options) {
    return of(options, System.console() != null);
  }

  /**
   * As {@link #of(ProgressOptions)}, with whether a terminal is attached given.
   *
   * @param terminal what {@code auto} resolves to
   */
  static ProgressSettings of(ProgressOptions options, boolean terminal) {
    boolean enabled =
        switch (mode(options.getProgress())) {
          case "on" -> true;
          case "off" -> false;
          default -> terminal;
        };
    Long period = options.getProgressPeriodMillis();
    if (period == null || period < MIN_PERIOD_MILLIS) {
      throw new IllegalArgumentException(
          "--progressPeriodMillis is the time between two progress lines and must be at least "
              + MIN_PERIOD_MILLIS
              + " ms; got "
              + period);
    }
    PrintStream out = options.getProgressStream();
    return new ProgressSettings(enabled, period, out != null ? out : System.err);
  }

  /** {@code auto}, {@code on} or {@code off} (also {@code true}/{@code false}), any case. */
  private static String mode(String value) {
    if (value == null || value.isBlank()) {
      return "auto";
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> "auto";
      case "on", "true" -> "on";
      case "off", "false" -> "off";
      default ->
          throw new IllegalArgumentException(
              "--progress must be auto, on or off; got '"
                  + value
                  + "'. auto prints progress only when stdout is a terminal.");
    };
  }
}
