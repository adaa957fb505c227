package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class VersionTest {
  private static final SealedFile FILE = new SealedFile("clicks", "/lake/t/v/a/clicks/p", 3);

  @Test
  void aPendingVersionWaitsForEveryApp() {
    Version v = Version.pending(T, List.of("a", "b"));
    assertTrue(v.isPending());
    assertFalse(v.allSealed());
    Version half = v.sealed("a", List.of(FILE));
    assertTrue(half.sealedBy("a"));
    assertFalse(half.sealedBy("b"));
    assertFalse(half.sealedBy("stranger"));
    assertEquals(List.of(FILE), half.apps().get(0).files());
    assertTrue(half.sealed("b", List.of()).allSealed());
    assertFalse(v.sealedBy("a"), "records are immutable");
  }

  @Test
  void aFailureByAnAppNamesTheApp() {
    Version failed = Version.pending(T, List.of("a", "b")).failedBy("b", "disk full");
    assertEquals(Version.Status.FAILED, failed.status());
    assertEquals("app b: disk full", failed.failure());
    assertEquals("disk full", failed.apps().get(1).failure());
    assertEquals("", failed.apps().get(0).failure());
  }

  @Test
  void aCommitKeepsTheDiffBaseOnlyWhenGiven() {
    Version sealed = Version.pending(minutes(5), List.of("a")).sealed("a", List.of(FILE));
    Version diff = sealed.committed(minutes(6), T);
    assertEquals(Version.Status.COMMITTED, diff.status());
    assertEquals(minutes(6), diff.committedAt());
    assertEquals(T, diff.diffBase());
    assertNull(sealed.committed(minutes(6), null).diffBase());
    assertEquals("commit failed: boom", sealed.failed("commit failed: boom").failure());
    assertTrue(sealed.failed("x").sealedBy("a"));
  }
}
