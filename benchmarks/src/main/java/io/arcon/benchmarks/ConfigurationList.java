package io.arcon.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Function;

/** A benchmark's {@code --configurations}: comma-separated names of its configurations. */
public final class ConfigurationList {
  private ConfigurationList() {}

  /** Every configuration's name, comma-separated. */
  public static <C> String names(C[] all, Function<C, String> name) {
    StringJoiner names = new StringJoiner(",");
    for (C c : all) {
      names.add(name.apply(c));
    }
    return names.toString();
  }

  /**
   * The configurations {@code text} names, in its order; blanks are skipped.
   *
   * @param unknownHint appended to the message for an unknown name (may be empty)
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static <C> List<C> parse(
      String text, C[] all, Function<C, String> name, String unknownHint) {
    List<C> result = new ArrayList<>();
    for (String entry : text.split(",")) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      C found = null;
      for (C c : all) {
        if (name.apply(c).equals(trimmed)) {
          found = c;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(
            "Unknown configuration '"
                + trimmed
                + "' in --configurations; use a comma-separated subset of "
                + names(all, name)
                + unknownHint);
      }
      result.add(found);
    }
    return result;
  }

  /**
   * {@link #parse}, refusing a list that names nothing.
   *
   * @param option the option's name, for the message ({@code "--configurations"})
   */
  public static <C> List<C> parseNonEmpty(
      String option, String text, C[] all, Function<C, String> name, String unknownHint) {
    List<C> result = parse(text, all, name, unknownHint);
    if (result.isEmpty()) {
      throw new IllegalArgumentException(
          option + " is empty; use a comma-separated subset of " + names(all, name));
    }
    return result;
  }
}
