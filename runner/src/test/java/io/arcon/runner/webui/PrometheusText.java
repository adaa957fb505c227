package io.arcon.runner.webui;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reader of the Prometheus text exposition format (version 0.0.4), written for the tests from the
 * format's description, independent of the client library that writes it: {@code # TYPE} lines, and
 * samples {@code name{label="value",...} value}, with label values escaped as {@code \\}, {@code
 * \"} and {@code \n}.
 */
final class PrometheusText {
  /** One sample line. */
  record Sample(String name, Map<String, String> labels, double value) {}

  final Map<String, String> types = new HashMap<>();
  final List<Sample> samples = new ArrayList<>();

  static PrometheusText parse(String text) {
    PrometheusText parsed = new PrometheusText();
    int lineNumber = 0;
    for (String line : text.split("\n")) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("#")) {
        String[] parts = line.split(" ", 4);
        if (parts.length == 4 && parts[1].equals("TYPE")) {
          parsed.types.put(parts[2], parts[3]);
        }
        continue;
      }
      try {
        parsed.samples.add(sample(line));
      } catch (RuntimeException e) {
        throw new AssertionError("line " + lineNumber + " is not a sample: " + line, e);
      }
    }
    return parsed;
  }

  private static Sample sample(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
      throw new IllegalArgumentException("bad metric name " + name);
    }
    Map<String, String> labels = new TreeMap<>();
    if (line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        String label = line.substring(i, eq);
        if (line.charAt(eq + 1) != '"') {
          throw new IllegalArgumentException("label value not quoted");
        }
        StringBuilder value = new StringBuilder();
        int j = eq + 2;
        for (; line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\') {
            char next = line.charAt(++j);
            value.append(next == 'n' ? '\n' : next);
          } else {
            value.append(c);
          }
        }
        if (labels.put(label, value.toString()) != null) {
          throw new IllegalArgumentException("label " + label + " twice");
        }
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        }
      }
      i++;
    }
    String[] rest = line.substring(i).trim().split(" ");
    return new Sample(name, Collections.unmodifiableMap(labels), number(rest[0]));
  }

  private static double number(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }

  /** The samples of {@code name} whose labels include all of {@code labels}. */
  List<Sample> find(String name, Map<String, String> labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
        found.add(s);
      }
    }
    return found;
  }

  /** The value of the one sample of {@code name} with exactly {@code labels}. */
  double value(String name, Map<String, String> labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().equals(labels)) {
        found.add(s);
      }
    }
    if (found.size() != 1) {
      List<Sample> similar = find(name, Map.of());
      throw new AssertionError(
          found.size()
              + " samples "
              + name
              + labels
              + " (want 1) among "
              + similar.subList(0, Math.min(similar.size(), 30)));
    }
    return found.get(0).value();
  }
}
