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
}
