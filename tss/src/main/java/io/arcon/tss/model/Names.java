package io.arcon.tss.model;

import java.util.regex.Pattern;

/**
 * The one rule for app, TSS and state names: an identifier {@code [A-Za-z_][A-Za-z0-9_]*}; a state
 * name is {@code stateId} or {@code transform.stateId}, each part an identifier. Names become path
 * segments in the lake and file names in the control plane's home, so this rule is what guarantees
 * that no {@code /} or {@code ..} can ever reach a file-system path. The parser, the control plane
 * (for what apps and clients send without the parser) and the lake layout all check with it.
 */
public final class Names {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * The longest app, TSS or state-part name. A name is a directory or file name (with {@code .json}
   * after an app's), and file systems allow 255 bytes: a state {@code transform.stateId} of two
   * parts stays below that.
   */
  public static final int MAX_LENGTH = 120;

  /** Characters of a shortened name's hash suffix, {@code _} and 8 hex digits. */
  private static final int HASH_SUFFIX = 9;

  private Names() {}

  /** Whether {@code name} is a valid app, TSS or state-part name. */
  public static boolean isValid(String name) {
    return name != null && name.length() <= MAX_LENGTH && NAME.matcher(name).matches();
  }

  /** Whether {@code name} is a valid state name: {@code stateId} or {@code transform.stateId}. */
  public static boolean isValidState(String name) {
    if (name == null) {
      return false;
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length > 2) {
      return false;
    }
    for (String part : parts) {
      if (!isValid(part)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Turns any text (a Beam job name, a transform's user-given name) into a valid name: every
   * character outside {@code [A-Za-z0-9_]} becomes {@code _}, runs of {@code _} collapse, and a
   * leading digit (or an empty result) gets a {@code _} in front, and a name longer than {@link
   * #MAX_LENGTH} is cut short with a hash of the whole text at its end (so two long names that
   * share their beginning stay apart). Valid names are returned as they are.
   */
  public static String sanitize(String text) {
    if (isValid(text)) {
      return text;
    }
    String replaced = (text == null ? "" : text).replaceAll("[^A-Za-z0-9_]+", "_");
    replaced = replaced.replaceAll("_{2,}", "_");
    if (replaced.length() > 1 && replaced.endsWith("_")) {
      replaced = replaced.substring(0, replaced.length() - 1);
    }
    if (replaced.isEmpty() || Character.isDigit(replaced.charAt(0))) {
      replaced = "_" + replaced;
    }
    if (replaced.length() > MAX_LENGTH) {
      replaced =
          replaced.substring(0, MAX_LENGTH - HASH_SUFFIX) + String.format("_%08x", text.hashCode());
    }
    return replaced;
  }

  /**
   * Returns {@code name} if valid.
   *
   * @param what what the name denotes, for the error message (e.g. "app", "TSS")
   * @throws IllegalArgumentException naming the bad value and the allowed form
   */
  public static String requireValid(String name, String what) {
    if (name != null && name.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          what
              + " name "
              + quoted(name.substring(0, 20) + "...")
              + " has "
              + name.length()
              + " characters: use at most "
              + MAX_LENGTH);
    }
    if (!isValid(name)) {
      throw new IllegalArgumentException(
          "invalid "
              + what
              + " name "
              + quoted(name)
              + ": use letters, digits and '_' only, not starting with a digit");
    }
    return name;
  }

  /**
   * Returns {@code name} if it is a valid state name.
   *
   * @throws IllegalArgumentException naming the bad value and the allowed form
   */
  public static String requireValidState(String name) {
    if (name != null && !isValidState(name)) {
      for (String part : name.split("\\.", -1)) {
        if (part.length() > MAX_LENGTH) {
          throw new IllegalArgumentException(
              "state name "
                  + quoted(name.substring(0, 20) + "...")
                  + " has a part of "
                  + part.length()
                  + " characters: use at most "
                  + MAX_LENGTH
                  + " per part");
        }
      }
    }
    if (!isValidState(name)) {
      throw new IllegalArgumentException(
          "invalid state name "
              + quoted(name)
              + ": use stateId or transform.stateId, each part letters, digits and '_' only, not"
              + " starting with a digit");
    }
    return name;
  }

  private static String quoted(String name) {
    return name == null ? "null" : "'" + name + "'";
  }
}
