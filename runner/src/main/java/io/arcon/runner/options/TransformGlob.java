package io.arcon.runner.options;

import java.util.regex.Pattern;

/**
 * A glob over transform names, as options that select transforms use it ({@code --stateBackends},
 * {@code --tssExport}): {@code *} matches any characters including {@code /}, {@code ?} one
 * character; a transform matches when its full name or the full name of an enclosing composite (a
 * prefix ending before a {@code /}) matches.
 */
public record TransformGlob(String pattern, Pattern regex) {

  public static TransformGlob of(String pattern) {
    return new TransformGlob(pattern, toRegex(pattern));
  }

  public boolean matches(String fullName) {
    if (regex.matcher(fullName).matches()) {
      return true;
    }
    for (int i = fullName.indexOf('/'); i >= 0; i = fullName.indexOf('/', i + 1)) {
      if (regex.matcher(fullName.substring(0, i)).matches()) {
        return true;
      }
    }
    return false;
  }

  private static Pattern toRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*' || c == '?') {
        if (literal.length() > 0) {
          regex.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        regex.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
