package io.arcon.state;

import java.util.Map;

/** Parsing of engine option values with messages that name the option and the expected form. */
public final class OptionValues {
  private OptionValues() {}

  /** The option as a long in {@code [min, max]}, or {@code defaultValue} when it is absent. */
  public static long longInRange(
      Map<String, String> options, String key, long defaultValue, long min, long max) {
    String raw = options.get(key);
    if (raw == null) {
      return defaultValue;
    }
    long value;
    try {
      value = Long.parseLong(raw.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "State backend option "
              + key
              + " must be a whole number between "
              + min
              + " and "
              + max
              + ", got '"
              + raw
              + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "State backend option "
              + key
              + " must be between "
              + min
              + " and "
              + max
              + ", got "
              + value);
    }
    return value;
  }

  /** The option as an int in {@code [min, max]}, or {@code defaultValue} when it is absent. */
  public static int intInRange(
      Map<String, String> options, String key, int defaultValue, int min, int max) {
    return (int) longInRange(options, key, defaultValue, min, max);
  }
}
