package io.arcon.tss.lang;

import java.util.regex.Pattern;

/**
 * The one rule for app, state and TSS names: {@code [A-Za-z_][A-Za-z0-9_]*}. Names become path
 * segments in the lake, so this rule is what guarantees that no {@code /} or {@code ..} can ever
 * reach a file-system path.
 */
public final class Names {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private Names() {}

  /** Whether {@code name} is a valid app, state-part or TSS name. */
  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /**
   * Returns {@code name} if valid.
   *
   * @param what what the name denotes, for the error message (e.g. "app", "TSS")
   * @throws IllegalArgumentException naming the bad value and the allowed form
   */
  public static String requireValid(String name, String what) {
    if (!isValid(name)) {
      throw new IllegalArgumentException(
          "invalid "
              + what
              + " name "
              + (name == null ? "null" : "'" + name + "'")
              + ": use letters, digits and '_' only, not starting with a digit");
    }
    return name;
  }
}
