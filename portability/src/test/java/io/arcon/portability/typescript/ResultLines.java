package io.arcon.portability.typescript;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads a pipeline's output file: one result a line, tab-separated fields, the last one a count or
 * sum. Each result must appear once; a second line for the same result (a bundle's output written
 * twice, or a window fired twice) fails the test.
 */
final class ResultLines {
  private ResultLines() {}

  /**
   * The results of {@code file}, keyed by {@code keyOf} applied to every field but the last.
   *
   * @param fields the number of tab-separated fields a line has
   */
  static <K> Map<K, Long> read(Path file, int fields, Function<List<String>, K> keyOf)
      throws IOException {
    if (!Files.exists(file)) {
      fail("The pipeline ended without writing " + file);
    }
    Map<K, Long> results = new HashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      List<String> parts = List.of(line.split("\t", -1));
      String where = file + ":" + (i + 1) + ": '" + line + "'";
      if (parts.size() != fields) {
        fail(where + " has " + parts.size() + " tab-separated fields, expected " + fields);
      }
      long value;
      K key;
      try {
        value = Long.parseLong(parts.get(fields - 1));
        key = keyOf.apply(parts.subList(0, fields - 1));
      } catch (NumberFormatException e) {
        fail(where + " has a field that is not an integer: " + e.getMessage());
        return results;
      }
      Long earlier = results.putIfAbsent(key, value);
      if (earlier != null) {
        fail(where + " repeats the result for " + key + " (first " + earlier + ")");
      }
    }
    return results;
  }
}
