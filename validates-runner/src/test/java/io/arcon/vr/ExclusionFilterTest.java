package io.arcon.vr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs discovery of a JUnit 4 fixture through the vintage engine, as Surefire does. */
class ExclusionFilterTest {

  @TempDir Path dir;

  @AfterEach
  void clearProperty() {
    System.clearProperty(ExclusionFilter.EXCLUSIONS_PROPERTY);
  }

  private Set<String> discoveredMethods(String... exclusionLines) throws Exception {
    Path file = dir.resolve("exclusions.txt");
    Files.write(file, java.util.List.of(exclusionLines));
    System.setProperty(ExclusionFilter.EXCLUSIONS_PROPERTY, file.toString());
    Launcher launcher =
        LauncherFactory.create(
            LauncherConfig.builder().enablePostDiscoveryFilterAutoRegistration(false).build());
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(CategorizedJUnit4Fixture.class))
            .filters(new ExclusionFilter())
            .build();
    TestPlan plan = launcher.discover(request);
    Set<String> methods = new TreeSet<>();
    for (TestIdentifier root : plan.getRoots()) {
      for (TestIdentifier d : plan.getDescendants(root)) {
        if (d.isTest()) {
          methods.add(d.getDisplayName());
        }
      }
    }
    return methods;
  }

  @Test
  void withoutExclusionsEveryMethodIsDiscovered() throws Exception {
    assertEquals(
        Set.of("fastTest", "streamingTest", "slowTest"), discoveredMethods("# nothing excluded"));
  }

  @Test
  void methodClassAndCategoryEntriesRemoveTests() throws Exception {
    assertEquals(
        Set.of("fastTest", "slowTest"), discoveredMethods("UsesTestStream  # needs test stream"));
    assertEquals(
        Set.of("fastTest", "streamingTest"),
        discoveredMethods("CategorizedJUnit4Fixture#slowTest  # runner bug: slow"));
    assertEquals(Set.of(), discoveredMethods("CategorizedJUnit4Fixture  # whole class"));
  }
}
