package io.arcon.tss.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamesTest {

  @Test
  void namesAreIdentifiers() {
    for (String good : List.of("a", "_", "clicks_app", "A1", "_9")) {
      assertTrue(Names.isValid(good), good);
      assertEquals(good, Names.requireValid(good, "app"));
    }
    for (String bad : List.of("", "1abc", "a-b", "a.b", "a/b", "..", "../x", "a b", "ä")) {
      assertFalse(Names.isValid(bad), bad);
    }
    assertFalse(Names.isValid(null));
  }

  @Test
  void stateNamesAreAnIdentifierOrTransformDotIdentifier() {
    for (String good : List.of("clicks", "Count.clicks", "_a._b")) {
      assertTrue(Names.isValidState(good), good);
      assertEquals(good, Names.requireValidState(good));
    }
    for (String bad : List.of("", "a.b.c", "A..b", ".a", "a.", "a/../b", "1a", "a.1b")) {
      assertFalse(Names.isValidState(bad), bad);
    }
    assertFalse(Names.isValidState(null));
  }

  @Test
  void refusalsNameTheValueAndTheRule() {
    assertEquals(
        "invalid TSS name '../etc': use letters, digits and '_' only, not starting with a digit",
        assertThrows(IllegalArgumentException.class, () -> Names.requireValid("../etc", "TSS"))
            .getMessage());
    assertEquals(
        "invalid app name null: use letters, digits and '_' only, not starting with a digit",
        assertThrows(IllegalArgumentException.class, () -> Names.requireValid(null, "app"))
            .getMessage());
    assertEquals(
        "invalid state name 'a/../b': use stateId or transform.stateId, each part letters, digits"
            + " and '_' only, not starting with a digit",
        assertThrows(IllegalArgumentException.class, () -> Names.requireValidState("a/../b"))
            .getMessage());
  }

  @org.junit.jupiter.api.Test
  void sanitizeMakesAnyTextAValidName() {
    org.junit.jupiter.api.Assertions.assertEquals("clicks", Names.sanitize("clicks"));
    org.junit.jupiter.api.Assertions.assertEquals(
        "clickcounter_alice_1203153000_1a2b", Names.sanitize("clickcounter-alice-1203153000-1a2b"));
    org.junit.jupiter.api.Assertions.assertEquals(
        "Count_Per_User", Names.sanitize("Count/Per User"));
    org.junit.jupiter.api.Assertions.assertEquals("_2pass", Names.sanitize("2pass"));
    org.junit.jupiter.api.Assertions.assertEquals("_", Names.sanitize("../"));
    org.junit.jupiter.api.Assertions.assertTrue(Names.isValid(Names.sanitize("")));
  }

  /**
   * A name becomes a file name (255 bytes at most): a longer one failed deep in the control plane
   * with an I/O error, after SHOW APPS already listed it.
   */
  @org.junit.jupiter.api.Test
  void longNamesAreRefusedAndLongTextIsShortenedApart() {
    String longest = "a".repeat(Names.MAX_LENGTH);
    org.junit.jupiter.api.Assertions.assertEquals(longest, Names.requireValid(longest, "app"));
    String tooLong = "b".repeat(300);
    org.junit.jupiter.api.Assertions.assertEquals(
        "app name 'bbbbbbbbbbbbbbbbbbbb...' has 300 characters: use at most 120",
        assertThrows(IllegalArgumentException.class, () -> Names.requireValid(tooLong, "app"))
            .getMessage());
    org.junit.jupiter.api.Assertions.assertEquals(
        "state name 'T.bbbbbbbbbbbbbbbbbb...' has a part of 300 characters: use at most 120 per"
            + " part",
        assertThrows(IllegalArgumentException.class, () -> Names.requireValidState("T." + tooLong))
            .getMessage());

    String one = Names.sanitize(tooLong + "-one");
    String other = Names.sanitize(tooLong + "-other");
    org.junit.jupiter.api.Assertions.assertEquals(Names.MAX_LENGTH, one.length());
    org.junit.jupiter.api.Assertions.assertTrue(Names.isValid(one), one);
    org.junit.jupiter.api.Assertions.assertTrue(Names.isValid(other), other);
    org.junit.jupiter.api.Assertions.assertNotEquals(one, other);
    org.junit.jupiter.api.Assertions.assertEquals(one, Names.sanitize(tooLong + "-one"));
    org.junit.jupiter.api.Assertions.assertTrue(Names.isValid(Names.sanitize(tooLong)));
  }
}
