package io.arcon.vr;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code --name=value} arguments the harness mains receive from the Maven build. */
final class CommandLine {

  private final Map<String, String> values = new HashMap<>();
  private final String program;

  CommandLine(String program, String[] args) {
    this.program = program;
    for (String arg : args) {
      int equals = arg.indexOf('=');
      if (!arg.startsWith("--") || equals < 0) {
        throw new IllegalArgumentException(
            program + ": argument '" + arg + "' is not of the form --name=value");
      }
      values.put(arg.substring(2, equals), arg.substring(equals + 1));
    }
  }

  String required(String name) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          program + ": missing argument --" + name + "=...; see validates-runner/pom.xml");
    }
    return value;
  }

  Path path(String name) {
    return Path.of(required(name));
  }

  /** A comma-separated list of paths. */
  List<Path> paths(String name) {
    return Arrays.stream(required(name).split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(Path::of)
        .toList();
  }

  boolean flag(String name, boolean defaultValue) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(
          program + ": --" + name + " must be true or false, not '" + value + "'");
    }
    return Boolean.parseBoolean(value);
  }
}
