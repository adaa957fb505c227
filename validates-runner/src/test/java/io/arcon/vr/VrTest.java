package io.arcon.vr;

import java.util.List;

/**
 * One ValidatesRunner test method as found in the Beam test jars.
 *
 * @param className binary name of the concrete test class, e.g. {@code a.b.ParDoTest$TimerTests}
 * @param methodName the JUnit 4 test method
 * @param categories binary names of its categories (method and class), with their super-types
 */
public record VrTest(String className, String methodName, List<String> categories) {

  public VrTest {
    categories = List.copyOf(categories);
  }

  /** {@code Class#method} with the simple class name, the form used in exclusions.txt. */
  public String displayName() {
    return ExclusionList.simpleName(className) + "#" + methodName;
  }
}
