package io.arcon.portability.typescript;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The windowed sums of {@code windowed_sum.js}, computed here from the same events: each event
 * {@code key,value,timestampMillis} goes into the fixed window {@code [t - t mod size, ... +
 * size)}, and values are summed per key and window. Blank lines and lines starting with # are
 * skipped (as {@code readEvents} in {@code lib/common.js}).
 */
final class WindowedSums {
  private static final Pattern INTEGER = Pattern.compile("-?\\d+");

  /** A key in a window {@code [startMillis, endMillis)}. */
  record KeyWindow(String key, long startMillis, long endMillis) {}

  private static final Comparator<KeyWindow> ORDER =
      Comparator.comparing(KeyWindow::key)
          .thenComparingLong(KeyWindow::startMillis)
          .thenComparingLong(KeyWindow::endMillis);

  private WindowedSums() {}

  static Map<KeyWindow, Long> expectedFrom(Path events, int windowSeconds) throws IOException {
    long size = windowSeconds * 1000L;
    Map<KeyWindow, Long> sums = new TreeMap<>(ORDER);
    List<String> lines = Files.readAllLines(events, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split(",", -1);
      if (fields.length != 3
          || !INTEGER.matcher(fields[1]).matches()
          || !INTEGER.matcher(fields[2]).matches()) {
        throw new IllegalArgumentException(
            events + ":" + (i + 1) + ": '" + line + "' is not key,integer value,integer timestamp");
      }
      long timestamp = Long.parseLong(fields[2]);
      if (timestamp < 0) {
        // The SDK's fixedWindows takes the remainder with the sign of the timestamp, Beam's
        // windows are aligned to the epoch: the two disagree before 1970.
        throw new IllegalArgumentException(
            events + ":" + (i + 1) + ": timestamp " + timestamp + " is negative; use times >= 0");
      }
      long start = timestamp - timestamp % size;
      sums.merge(
          new KeyWindow(fields[0], start, start + size), Long.parseLong(fields[1]), Long::sum);
    }
    return sums;
  }

  /** The script's output: lines {@code key<TAB>windowStartMillis<TAB>windowEndMillis<TAB>sum}. */
  static Map<KeyWindow, Long> read(Path output) throws IOException {
    Map<KeyWindow, Long> sums = new TreeMap<>(ORDER);
    sums.putAll(
        ResultLines.read(
            output,
            4,
            fields ->
                new KeyWindow(
                    fields.get(0), Long.parseLong(fields.get(1)), Long.parseLong(fields.get(2)))));
    return sums;
  }
}
