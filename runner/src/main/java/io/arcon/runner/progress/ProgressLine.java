package io.arcon.runner.progress;

import io.arcon.runtime.job.JobMonitor;
import java.time.Duration;
import java.util.Locale;

/**
 * The text of progress lines, e.g. {@code [job] read 1,234,567 elements, 98.1 MB of ~250.0 MB
 * (39%), 412,000 el/s, 00:03 elapsed}. Numbers are written the same way in every locale so lines
 * can be read by scripts; sizes in decimal units (1 MB = 1,000,000 bytes).
 */
final class ProgressLine {
  private static final String[] UNITS = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};

  private ProgressLine() {}

  /**
   * A line while the job runs.
   *
   * @param elementsPerSecond the read rate since the previous line
   */
  static String running(
      String job, ReadProgress.Totals totals, double elementsPerSecond, long elapsedMillis) {
    if (totals.sources() == 0) {
      return "[" + job + "] running, " + elapsed(elapsedMillis) + " elapsed";
    }
    return "[" + job + "] " + reads(totals, elementsPerSecond, elapsedMillis);
  }

  /** The line when the job ended, with the totals and the average rate over the whole run. */
  static String ended(
      String job, JobMonitor.Outcome outcome, ReadProgress.Totals totals, long elapsedMillis) {
    String head = "[" + job + "] " + outcome.name();
    if (totals.sources() == 0) {
      return head + ", " + elapsed(elapsedMillis) + " elapsed";
    }
    double average = elapsedMillis > 0 ? totals.elements() * 1000.0 / elapsedMillis : 0;
    return head + ": " + reads(totals, average, elapsedMillis);
  }

  private static String reads(ReadProgress.Totals totals, double rate, long elapsedMillis) {
    StringBuilder line = new StringBuilder("read ").append(count(totals.elements()));
    line.append(totals.elements() == 1 ? " element" : " elements");
    if (totals.unbounded()) {
      line.append(" (unbounded source)");
    } else if (totals.bytesRead() >= 0) {
      line.append(", ").append(bytes(totals.bytesRead()));
      if (totals.estimatedBytes() >= 0) {
        line.append(" of ~").append(bytes(totals.estimatedBytes()));
        int percent = totals.percent();
        if (percent >= 0) {
          line.append(" (").append(percent).append("%)");
        }
      }
    }
    line.append(", ").append(count(Math.round(rate))).append(" el/s");
    line.append(", ").append(elapsed(elapsedMillis)).append(" elapsed");
    return line.toString();
  }

  /** {@code 1,234,567}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 512 B}, {@code 1.5 kB}, {@code 98.1 MB}: decimal units, one decimal above bytes. */
  static String bytes(long n) {
    if (n < 1000) {
      return n + " B";
    }
    double value = n;
    int unit = 0;
    // Moves up while the rounded value would show as 1000.0 or more.
    while (value >= 999.95 && unit < UNITS.length - 1) {
      value /= 1000;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
  }

  /** {@code 00:03}, {@code 12:34}, or {@code 1:02:03} from an hour on. */
  static String elapsed(long millis) {
    Duration d = Duration.ofMillis(Math.max(0, millis));
    long hours = d.toHours();
    if (hours > 0) {
      return String.format(
          Locale.ROOT, "%d:%02d:%02d", hours, d.toMinutesPart(), d.toSecondsPart());
    }
    return String.format(Locale.ROOT, "%02d:%02d", d.toMinutesPart(), d.toSecondsPart());
  }
}
