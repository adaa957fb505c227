package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TssCatalogTest {
  @TempDir Path home;

  private TssCatalog catalog() {
    CatalogStore store = new CatalogStore(home);
    return new TssCatalog(store, new AppRegistry(store));
  }

  @Test
  void finishedVersionsSurviveARestartAndLeaveTheOpenSet() {
    TssCatalog tsss = catalog();
    TssState tss = new TssState(spec("t", 3, false, "a.clicks"));
    tsss.add(tss);
    tss.addPending(T);
    tss.addPending(minutes(5));
    tsss.persist(tss);
    tsss.finish(tss, tss.version(T).sealed("a", List.of()).committed(minutes(1), null));
    tsss.fail(tss, minutes(5), "a", "disk full");

    TssState restored = catalog().require("t");
    assertEquals(tss.spec(), restored.spec());
    assertEquals(List.copyOf(tss.versions()), List.copyOf(restored.versions()));
    assertEquals(0, restored.openCount());
    assertEquals("app a: disk full", restored.version(minutes(5)).failure());
  }

  @Test
  void removingATssDeletesItsCatalogEntry() throws Exception {
    TssCatalog tsss = catalog();
    TssState tss = new TssState(spec("t", 1, false, "a.clicks"));
    tsss.add(tss);
    tsss.persist(tss);
    assertEquals(tss, tsss.remove("t"));
    assertNull(tsss.remove("t"));
    try (var files = Files.list(home.resolve("catalog/tss"))) {
      assertEquals(List.of(), files.toList());
    }
    assertEquals(
        "unknown TSS 't'; existing: (none)",
        assertThrows(ControlPlaneException.class, () -> catalog().require("t")).getMessage());
  }
}
