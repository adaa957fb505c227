package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TssStateTest {
  private static SealedFile file(String state) {
    return new SealedFile(state, "/lake/" + state, 1);
  }

  private static TssState twoApps() {
    return new TssState(spec("t", 3, true, "a.clicks", "b.steps", "a.views"));
  }

  @Test
  void statesAreGroupedByAppInExtractOrder() {
    TssState tss = twoApps();
    assertEquals(Map.of("a", List.of("clicks", "views"), "b", List.of("steps")), tss.statesByApp());
    assertEquals(List.of("a", "b"), List.copyOf(tss.statesByApp().keySet()));
    assertTrue(tss.involves("b"));
    assertFalse(tss.involves("c"));
    assertEquals(T, tss.schedule().first());
  }

  @Test
  void pendingVersionsAreOpenUntilFinished() {
    TssState tss = twoApps();
    assertNull(tss.lastVersionTime());
    tss.addPending(T);
    tss.addPending(minutes(5));
    assertEquals(minutes(5), tss.lastVersionTime());
    assertEquals(2, tss.openCount());
    assertEquals(List.of("a", "b"), tss.version(T).apps().stream().map(a -> a.app()).toList());
    tss.finish(tss.version(T).failed("x"));
    assertEquals(List.of(minutes(5)), List.copyOf(tss.openTimes()));
    assertEquals(List.of(tss.version(minutes(5))), tss.openVersions());
    assertEquals(2, tss.versions().size());
    assertEquals(1, tss.count(Version.Status.FAILED));
    assertEquals(1, tss.count(Version.Status.PENDING));
  }

  @Test
  void aRestoredFinalCopyReplacesThePendingOne() {
    TssState tss = twoApps();
    Version pending = Version.pending(T, List.of("a", "b"));
    tss.restore(pending);
    assertEquals(1, tss.openCount());
    tss.restore(pending.committed(minutes(1), null));
    assertEquals(0, tss.openCount());
    assertEquals(Version.Status.COMMITTED, tss.version(T).status());
  }

  @Test
  void aSealMustHoldEveryStateOfTheApp() {
    TssState tss = twoApps();
    tss.addPending(T);
    assertTrue(tss.awaitsSeal("a", T));
    assertFalse(tss.awaitsSeal("c", T), "not an app of the TSS");
    assertFalse(tss.awaitsSeal("a", minutes(5)), "no such version");
    assertEquals(Set.of("views"), tss.missingStates("a", List.of(file("clicks"))));
    assertEquals(List.of("clicks", "views"), List.copyOf(tss.missingStates("a", List.of())));
    assertEquals(Set.of(), tss.missingStates("a", List.of(file("views"), file("clicks"))));
    tss.seal("a", T, List.of(file("clicks"), file("views")));
    assertFalse(tss.awaitsSeal("a", T), "sealing twice is nothing new");
    assertTrue(tss.version(T).sealedBy("a"));
  }

  @Test
  void onlyTheEarliestOpenVersionCommitsAndOnlyOnce() {
    TssState tss = twoApps();
    tss.addPending(T);
    tss.addPending(minutes(5));
    for (String app : List.of("a", "b")) {
      tss.seal(app, minutes(5), List.of());
    }
    assertNull(tss.startCommit(), "T is not sealed yet; T+5 must wait for it");
    tss.seal("a", T, List.of());
    tss.seal("b", T, List.of());
    Version first = tss.startCommit();
    assertEquals(T, first.time());
    assertTrue(tss.isCommitting(T));
    assertNull(tss.startCommit(), "already being committed");
    tss.endCommit(T);
    tss.finish(tss.version(T).committed(minutes(6), null));
    assertFalse(tss.isCommitting(T));
    assertEquals(minutes(5), tss.startCommit().time());
  }

  @Test
  void theDiffBaseIsTheLastCommittedVersionBefore() {
    TssState tss = twoApps();
    tss.addPending(T);
    tss.addPending(minutes(5));
    tss.addPending(minutes(10));
    assertNull(tss.lastCommittedBefore(minutes(10)));
    tss.finish(tss.version(T).committed(minutes(1), null));
    tss.finish(tss.version(minutes(5)).failedBy("a", "x"));
    assertEquals(T, tss.lastCommittedBefore(minutes(10)));
    assertNull(tss.lastCommittedBefore(T));
  }
}
