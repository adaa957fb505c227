package io.arcon.vr;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.MethodSource;

/**
 * The JUnit 4 class and method of a JUnit Platform test, as the vintage engine describes it.
 *
 * @param className binary class name
 * @param methodName method name, possibly with a Parameterized suffix like {@code [0]}
 */
record TestIdentity(String className, String methodName) {

  /** The vintage engine's last unique-id segment is JUnit 4's {@code method(Class)} display. */
  private static final Pattern JUNIT4_DISPLAY = Pattern.compile("^(.*)\\(([^()]+)\\)$");

  static Optional<TestIdentity> of(Optional<TestSource> source, UniqueId uniqueId) {
    if (source.isPresent() && source.get() instanceof MethodSource method) {
      return Optional.of(new TestIdentity(method.getClassName(), method.getMethodName()));
    }
    var segments = uniqueId.getSegments();
    if (segments.isEmpty()) {
      return Optional.empty();
    }
    Matcher matcher = JUNIT4_DISPLAY.matcher(segments.get(segments.size() - 1).getValue());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    return Optional.of(new TestIdentity(matcher.group(2), matcher.group(1)));
  }

  @Override
  public String toString() {
    return className + "#" + methodName;
  }
}
