package io.arcon.tss.server;

import java.util.regex.Pattern;

/**
 * The server's own check of every name that becomes a path segment or a catalog file name. The
 * parser checks names too, but apps register over gRPC without the parser, and a client may send
 * anything: this is the check that keeps '/' and '..' out of the lake and the home directory.
 */
final class SafeNames {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private SafeNames() {}

  static String requireName(String what, String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw ControlPlaneException.invalid(
          "invalid "
              + what
              + " name "
              + (name == null ? "null" : "'" + name + "'")
              + ": names are letters, digits and '_' only, not starting with a digit");
    }
    return name;
  }

  /** A state name is {@code stateId} or {@code transform.stateId}, each part a name. */
  static String requireStateName(String name) {
    if (name == null) {
      throw ControlPlaneException.invalid("state name is missing");
    }
    String[] parts = name.split("\\.", -1);
    if (parts.length > 2) {
      throw ControlPlaneException.invalid(
          "invalid state name '" + name + "': use stateId or transform.stateId");
    }
    for (String part : parts) {
      if (!NAME.matcher(part).matches()) {
        throw ControlPlaneException.invalid(
            "invalid state name '"
                + name
                + "': each part is letters, digits and '_' only, not starting with a digit");
      }
    }
    return name;
  }
}
