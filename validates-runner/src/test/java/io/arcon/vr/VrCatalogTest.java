package io.arcon.vr;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.transforms.ParDoTest;
import org.junit.jupiter.api.Test;

/** Scans Beam's real sdks-java-core test jar. */
class VrCatalogTest {

  private static Path jarOf(Class<?> clazz) throws Exception {
    return Path.of(clazz.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  @Test
  void findsNestedAndInheritedValidatesRunnerMethods() throws Exception {
    List<VrTest> tests =
        VrCatalog.scan(List.of(jarOf(ParDoTest.class)), getClass().getClassLoader()).tests();

    // A nested static class whose methods carry the category themselves.
    assertTrue(
        tests.stream()
            .anyMatch(
                t ->
                    t.className().equals("org.apache.beam.sdk.transforms.ParDoTest$TimerTests")
                        && t.methodName().equals("testEventTimeTimerBounded")),
        "ParDoTest$TimerTests#testEventTimeTimerBounded missing");
    // Categories carry their super-types, so UsesStatefulParDo implies its parents too.
    assertTrue(tests.stream().allMatch(t -> t.categories().contains(VrCatalog.VALIDATES_RUNNER)));
    // Abstract or non-test classes never appear.
    assertFalse(tests.stream().anyMatch(t -> t.className().equals(ParDoTest.class.getName())));
    assertTrue(tests.size() > 300, "only " + tests.size() + " VR tests found");
  }
}
