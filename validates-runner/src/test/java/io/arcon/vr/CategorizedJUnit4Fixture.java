package io.arcon.vr;

import static org.junit.Assert.assertEquals;

import org.apache.beam.sdk.testing.UsesTestStream;
import org.apache.beam.sdk.testing.ValidatesRunner;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A JUnit 4 class shaped like Beam's ValidatesRunner tests, for {@link ExclusionFilterTest}. Its
 * name does not end in "Test" so Surefire never runs it directly.
 */
@Category(ValidatesRunner.class)
public class CategorizedJUnit4Fixture {

  @Test
  public void fastTest() {
    assertEquals(2, 1 + 1);
  }

  @Test
  @Category(UsesTestStream.class)
  public void streamingTest() {
    assertEquals(4, 2 * 2);
  }

  @Test
  public void slowTest() {
    assertEquals(3, 1 + 2);
  }
}
