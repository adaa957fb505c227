package io.arcon.benchmarks.nexmark.query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** The queries of the suite, by NEXMark number. */
public final class Queries {
  private static final Map<Integer, NexmarkQuery> BY_NUMBER = new LinkedHashMap<>();

  static {
    BY_NUMBER.put(0, new Query0());
    BY_NUMBER.put(1, new Query1());
    BY_NUMBER.put(2, new Query2());
    BY_NUMBER.put(3, new Query3());
    BY_NUMBER.put(4, new Query4());
    BY_NUMBER.put(5, new Query5());
    BY_NUMBER.put(6, new Query6());
    BY_NUMBER.put(7, new Query7());
    BY_NUMBER.put(8, new Query8());
    BY_NUMBER.put(11, new Query11());
    BY_NUMBER.put(12, new Query12());
  }

  private Queries() {}

  /** Every query number, ascending. */
  public static List<Integer> numbers() {
    return List.copyOf(BY_NUMBER.keySet());
  }

  public static NexmarkQuery get(int number) {
    NexmarkQuery query = BY_NUMBER.get(number);
    if (query == null) {
      throw new IllegalArgumentException(
          "There is no query " + number + "; the suite has queries " + allNumbers());
    }
    return query;
  }

  /**
   * The query numbers in {@code text} ("0,1,2" or "Q0,Q1"), in its order; blanks are skipped.
   *
   * @throws IllegalArgumentException for an entry that is not a query of the suite
   */
  public static List<Integer> parse(String text) {
    List<Integer> numbers = new ArrayList<>();
    for (String entry : text.split(",")) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      String digits =
          trimmed.startsWith("Q") || trimmed.startsWith("q") ? trimmed.substring(1) : trimmed;
      int number;
      try {
        number = Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "'"
                + trimmed
                + "' in --queries is not a query number; use a comma-separated subset of "
                + allNumbers());
      }
      get(number);
      numbers.add(number);
    }
    if (numbers.isEmpty()) {
      throw new IllegalArgumentException(
          "--queries is empty; use a comma-separated subset of " + allNumbers());
    }
    return numbers;
  }

  private static String allNumbers() {
    StringJoiner all = new StringJoiner(",");
    BY_NUMBER.keySet().forEach(n -> all.add(String.valueOf(n)));
    return all.toString();
  }
}
