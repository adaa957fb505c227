package io.arcon.vr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExclusionListTest {

  private static final String TIMER_TESTS = "org.apache.beam.sdk.transforms.ParDoTest$TimerTests";
  private static final Set<String> VR_ONLY = Set.of(VrCatalog.VALIDATES_RUNNER);

  @Test
  void parsesTargetsAndReasonsAndSkipsCommentsAndBlankLines() {
    ExclusionList list =
        ExclusionList.parse(
            List.of(
                "# header comment",
                "",
                "ParDoTest$TimerTests#testEventTimeTimerLoop  # runner bug: looping timers",
                "org.apache.beam.sdk.transforms.FlattenTest   # runner bug: heterogeneous coders",
                "UsesExternalService  # needs an expansion service"),
            "exclusions.txt");

    assertEquals(3, list.entries().size());
    ExclusionList.Entry first = list.entries().get(0);
    assertEquals("ParDoTest$TimerTests#testEventTimeTimerLoop", first.target());
    assertEquals("runner bug: looping timers", first.reason());
    assertEquals("exclusions.txt:3", first.location());
    assertTrue(first.isMethod());
    assertFalse(list.entries().get(2).isMethod());
  }

  @Test
  void methodEntryMatchesOnlyThatMethodIncludingParameterizedInstances() {
    ExclusionList list =
        ExclusionList.parse(List.of("ParDoTest$TimerTests#testLoop  # reason"), "x");

    assertTrue(list.match(TIMER_TESTS, "testLoop", VR_ONLY).isPresent());
    assertTrue(list.match(TIMER_TESTS, "testLoop[3]", VR_ONLY).isPresent());
    assertFalse(list.match(TIMER_TESTS, "testLoopTwice", VR_ONLY).isPresent());
    assertFalse(
        list.match("org.apache.beam.sdk.transforms.ParDoTest$StateTests", "testLoop", VR_ONLY)
            .isPresent());
  }

  @Test
  void classEntryCoversNestedClassesButNotSimilarNames() {
    ExclusionList list = ExclusionList.parse(List.of("ParDoTest  # reason"), "x");

    assertTrue(list.match(TIMER_TESTS, "anything", VR_ONLY).isPresent());
    assertTrue(
        list.match("org.apache.beam.sdk.transforms.ParDoTest", "anything", VR_ONLY).isPresent());
    assertFalse(
        list.match("org.apache.beam.sdk.transforms.ParDoTestX", "anything", VR_ONLY).isPresent());
  }

  @Test
  void categoryEntryMatchesSimpleOrQualifiedCategoryNames() {
    ExclusionList simple = ExclusionList.parse(List.of("UsesTestStream  # reason"), "x");
    ExclusionList qualified =
        ExclusionList.parse(List.of("org.apache.beam.sdk.testing.UsesTestStream  # r"), "x");
    Set<String> categories =
        Set.of(VrCatalog.VALIDATES_RUNNER, "org.apache.beam.sdk.testing.UsesTestStream");

    assertTrue(simple.match(TIMER_TESTS, "m", categories).isPresent());
    assertTrue(qualified.match(TIMER_TESTS, "m", categories).isPresent());
    assertFalse(simple.match(TIMER_TESTS, "m", VR_ONLY).isPresent());
  }

  @Test
  void firstMatchingEntryWins() {
    ExclusionList list =
        ExclusionList.parse(
            List.of("ParDoTest$TimerTests#m  # specific", "ParDoTest  # general"), "x");

    assertEquals("specific", list.match(TIMER_TESTS, "m", VR_ONLY).orElseThrow().reason());
  }

  @Test
  void lineWithoutReasonIsRejectedWithItsLineNumber() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ExclusionList.parse(List.of("# c", "ParDoTest#testFoo"), "exclusions.txt"));

    assertTrue(e.getMessage().contains("exclusions.txt:2"), e.getMessage());
    assertTrue(e.getMessage().contains("has no reason"), e.getMessage());
  }

  @Test
  void emptyReasonAndMalformedTargetsAreRejected() {
    assertThrows(
        IllegalArgumentException.class, () -> ExclusionList.parse(List.of("ParDoTest  #   "), "x"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ExclusionList.parse(List.of("ParDoTest#a#b  # r"), "x"));
    assertThrows(
        IllegalArgumentException.class, () -> ExclusionList.parse(List.of("ParDoTest#  # r"), "x"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ExclusionList.parse(List.of("ParDoTest extra  # r"), "x"));
  }
}
