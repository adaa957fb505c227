package io.arcon.vr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Removes the tests listed in exclusions.txt from the Surefire run. Registered through {@code
 * META-INF/services}, so the JUnit Platform launcher Surefire uses picks it up; it is active only
 * when the system property {@value #EXCLUSIONS_PROPERTY} names the file.
 */
public final class ExclusionFilter implements PostDiscoveryFilter {

  static final String EXCLUSIONS_PROPERTY = "arcon.vr.exclusions";

  private final ExclusionList exclusions;

  public ExclusionFilter() {
    String file = System.getProperty(EXCLUSIONS_PROPERTY);
    if (file == null || file.isBlank()) {
      exclusions = null;
      return;
    }
    try {
      exclusions = ExclusionList.read(Path.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read exclusions file " + file, e);
    }
  }

  @Override
  public FilterResult apply(TestDescriptor descriptor) {
    if (exclusions == null || !descriptor.isTest()) {
      return FilterResult.included("no exclusions apply");
    }
    Optional<TestIdentity> identity =
        TestIdentity.of(descriptor.getSource(), descriptor.getUniqueId());
    if (identity.isEmpty()) {
      return FilterResult.included("not a JUnit 4 test method");
    }
    Optional<ExclusionList.Entry> entry =
        exclusions.match(
            identity.get().className(), identity.get().methodName(), categories(descriptor));
    return entry
        .map(e -> FilterResult.excluded(e.location() + ": " + e.reason()))
        .orElseGet(() -> FilterResult.included("not in exclusions"));
  }

  /** Vintage tags are category names; a class's categories sit on its container descriptor. */
  private static Set<String> categories(TestDescriptor descriptor) {
    Set<String> names = new LinkedHashSet<>();
    for (Optional<TestDescriptor> d = Optional.of(descriptor);
        d.isPresent();
        d = d.get().getParent()) {
      for (TestTag tag : d.get().getTags()) {
        names.add(tag.getName());
      }
    }
    return names;
  }
}
