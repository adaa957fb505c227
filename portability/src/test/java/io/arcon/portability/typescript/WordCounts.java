package io.arcon.portability.typescript;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The word count of {@code wordcount.js}, computed here from the same input: every line lower-cased
 * and split at each run of characters outside a-z, empty words dropped (as {@code wordsOf} in
 * {@code lib/common.js}).
 */
final class WordCounts {
  private static final Pattern NON_LETTERS = Pattern.compile("[^a-z]+");

  private WordCounts() {}

  static Map<String, Long> expectedFrom(Path words) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : Files.readAllLines(words, StandardCharsets.UTF_8)) {
      for (String word : NON_LETTERS.split(line.toLowerCase(Locale.ROOT))) {
        if (!word.isEmpty()) {
          counts.merge(word, 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  /** The script's output: lines {@code word<TAB>count}. */
  static Map<String, Long> read(Path output) throws IOException {
    return new TreeMap<>(ResultLines.read(output, 2, fields -> fields.get(0)));
  }
}
