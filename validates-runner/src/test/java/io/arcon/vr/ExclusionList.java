package io.arcon.vr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The parsed {@code exclusions.txt}: the single source of truth for which ValidatesRunner tests do
 * not run on ArconRunner, and why.
 *
 * <p>Each non-blank line that does not start with {@code #} is {@code <target> # <reason>}, where
 * the target is {@code TestClass#method}, {@code TestClass} (which also covers its nested classes)
 * or a JUnit category such as {@code UsesExternalService}. Class and category names may be simple
 * or fully qualified; nested classes are written with {@code $} as in {@code ParDoTest$TimerTests}.
 */
public final class ExclusionList {

  /** One exclusion line. */
  public record Entry(String source, int line, String target, String reason) {

    /** True when the target names one test method ({@code Class#method}). */
    public boolean isMethod() {
      return target.indexOf('#') >= 0;
    }

    /** Where the entry lives, e.g. {@code exclusions.txt:12}, for messages and reports. */
    public String location() {
      return source + ":" + line;
    }

    boolean matches(String className, String methodName, Collection<String> categories) {
      if (isMethod()) {
        int hash = target.indexOf('#');
        return sameClass(target.substring(0, hash), className)
            && target.substring(hash + 1).equals(stripParameters(methodName));
      }
      if (sameClassOrEnclosing(target, className)) {
        return true;
      }
      for (String category : categories) {
        if (sameClass(target, category)) {
          return true;
        }
      }
      return false;
    }
  }

  private final List<Entry> entries;

  private ExclusionList(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** Reads and validates the exclusions file. */
  public static ExclusionList read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "Exclusions file "
              + file.toAbsolutePath()
              + " does not exist; create it (it may be empty) or point -Darcon.vr.exclusions at"
              + " it.");
    }
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.getFileName().toString());
  }

  /** Parses exclusion lines; {@code source} names the file in error messages. */
  public static ExclusionList parse(List<String> lines, String source) {
    List<Entry> entries = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      int lineNumber = i + 1;
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      // A '#' may also separate Class#method, so the reason starts at the first '#' that follows
      // whitespace.
      int comment = reasonStart(line);
      if (comment < 0) {
        problems.add(
            source
                + ":"
                + lineNumber
                + ": '"
                + line
                + "' has no reason; write '<target>  # <why it is excluded>'");
        continue;
      }
      String target = line.substring(0, comment).strip();
      String reason = line.substring(comment + 1).strip();
      if (reason.isEmpty()) {
        problems.add(
            source + ":" + lineNumber + ": '" + target + "' has an empty reason after '#'");
        continue;
      }
      if (target.contains(" ") || target.contains("\t")) {
        problems.add(
            source
                + ":"
                + lineNumber
                + ": target '"
                + target
                + "' contains whitespace; use TestClass#method, TestClass or a category name");
        continue;
      }
      int hash = target.indexOf('#');
      if (hash == 0 || hash == target.length() - 1 || target.indexOf('#', hash + 1) >= 0) {
        problems.add(
            source
                + ":"
                + lineNumber
                + ": target '"
                + target
                + "' is malformed; use TestClass#method, TestClass or a category name");
        continue;
      }
      entries.add(new Entry(source, lineNumber, target, reason));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid exclusions file:\n  " + String.join("\n  ", problems));
    }
    return new ExclusionList(entries);
  }

  /** All entries in file order. */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * The first entry that excludes the given test method, if any.
   *
   * @param className binary name of the test class ({@code a.b.Outer$Inner})
   * @param methodName the method name; a JUnit parameter suffix like {@code [0]} is ignored
   * @param categories binary names of the test's categories, including their super-interfaces
   */
  public Optional<Entry> match(String className, String methodName, Collection<String> categories) {
    for (Entry entry : entries) {
      if (entry.matches(className, methodName, categories)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  /** Removes a JUnit 4 Parameterized suffix: {@code testFoo[3]} becomes {@code testFoo}. */
  public static String stripParameters(String methodName) {
    int bracket = methodName.indexOf('[');
    return bracket > 0 ? methodName.substring(0, bracket) : methodName;
  }

  /** The reason starts at the first '#' that is preceded by whitespace. */
  private static int reasonStart(String line) {
    for (int i = 1; i < line.length(); i++) {
      if (line.charAt(i) == '#' && Character.isWhitespace(line.charAt(i - 1))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean sameClass(String pattern, String className) {
    return pattern.equals(className) || pattern.equals(simpleName(className));
  }

  private static boolean sameClassOrEnclosing(String pattern, String className) {
    String name = className;
    while (true) {
      if (sameClass(pattern, name)) {
        return true;
      }
      int dollar = name.lastIndexOf('$');
      if (dollar < 0) {
        return false;
      }
      name = name.substring(0, dollar);
    }
  }

  /** {@code a.b.Outer$Inner} becomes {@code Outer$Inner}. */
  static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
