package io.arcon.runner.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.joda.time.Instant;

/** Reads what the pipeline's windowed text sinks wrote, and compares it with the oracle. */
final class SinkFiles {
  /**
   * Beam's default windowed file name: prefix +
   * windowStart-windowEnd-pane-N[-late][-last]-SSSSS-of-NNNNN.
   */
  private static final Pattern FILE_NAME =
      Pattern.compile(
          "(?<prefix>[a-z]+)(?<start>\\d{4}-[^Z]+Z)-(?<end>\\d{4}-[^Z]+Z)"
              + "-pane-\\d+(-last|-late)*-\\d{5}-of-\\d{5}");

  private SinkFiles() {}

  /** The key of a sink's window: what a window's files are grouped under. */
  static String windowKey(String sink, String windowText) {
    return sink + " " + windowText;
  }

  /**
   * The lines of every final file in {@code directory}, grouped by sink and window and sorted. The
   * sinks' temporary directories (hidden, .temp-beam-*) are skipped: only renamed files are output.
   */
  static SortedMap<String, List<String>> read(Path directory) {
    SortedMap<String, List<String>> lines = new TreeMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        String name = file.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        Matcher m = FILE_NAME.matcher(name);
        if (!Files.isRegularFile(file) || !m.matches()) {
          throw new AssertionError("Unexpected entry in the output directory: " + file);
        }
        String window =
            FaultPipeline.windowText(
                Instant.parse(m.group("start")).getMillis(),
                Instant.parse(m.group("end")).getMillis());
        lines
            .computeIfAbsent(windowKey(m.group("prefix"), window), k -> new ArrayList<>())
            .addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the output in " + directory, e);
    }
    lines.values().forEach(l -> l.sort(null));
    return lines;
  }

  /** Number of final files in {@code directory}. */
  static long fileCount(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> !f.getFileName().toString().startsWith(".")).count();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
  }

  /**
   * Null when {@code actual} equals {@code expected} (same windows, same multiset of lines in
   * each), else what differs: per window the missing and the extra (lost, duplicated) lines.
   */
  static String difference(
      SortedMap<String, List<String>> expected, SortedMap<String, List<String>> actual) {
    if (expected.equals(actual)) {
      return null;
    }
    StringBuilder diff = new StringBuilder();
    TreeMap<String, Boolean> windows = new TreeMap<>();
    expected.keySet().forEach(w -> windows.put(w, true));
    actual.keySet().forEach(w -> windows.put(w, true));
    int shown = 0;
    for (String window : windows.keySet()) {
      List<String> missing = new ArrayList<>(expected.getOrDefault(window, List.of()));
      List<String> extra = new ArrayList<>(actual.getOrDefault(window, List.of()));
      for (String line : actual.getOrDefault(window, List.of())) {
        if (missing.remove(line)) {
          extra.remove(line);
        }
      }
      if (missing.isEmpty() && extra.isEmpty()) {
        continue;
      }
      diff.append("\n  ").append(window).append(':');
      for (String line : missing) {
        if (shown++ < 40) {
          diff.append("\n    missing: ").append(line);
        }
      }
      for (String line : extra) {
        if (shown++ < 40) {
          diff.append("\n    extra:   ").append(line);
        }
      }
    }
    return diff.toString();
  }

  /** Total lines, for the logs. */
  static int lineCount(Map<String, List<String>> lines) {
    return lines.values().stream().mapToInt(List::size).sum();
  }
}
