package io.arcon.runner.options;

import java.util.Locale;

/** Parses the on/off switches among the options ({@code --tss}, {@code --webUi}, ...). */
public final class OnOff {
  private OnOff() {}

  /**
   * {@code on}/{@code true} or {@code off}/{@code false}, any case; unset means {@code defaultOn}.
   *
   * @param option the option's name as users write it, for the error, e.g. {@code --webUi}
   */
  public static boolean parse(String option, String value, boolean defaultOn) {
    if (value == null || value.isBlank()) {
      return defaultOn;
    }
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "on":
      case "true":
        return true;
      case "off":
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(option + " must be on or off; got '" + value + "'");
    }
  }
}
