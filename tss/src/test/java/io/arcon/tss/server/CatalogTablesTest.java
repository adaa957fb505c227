package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogTablesTest {
  @TempDir Path home;

  @Test
  void showAppsListsEveryAppWithItsLiveState() {
    StatementResult table =
        CatalogTables.showApps(
            List.of(
                new AppState.Snapshot("a", true, T, List.of(counter("x"), counter("y"))),
                new AppState.Snapshot("b", false, null, List.of())));
    assertEquals(List.of("app", "connected", "watermark", "states"), table.columns());
    assertEquals(
        List.of(List.of("a", "yes", T.toString(), "2"), List.of("b", "no", "-", "0")),
        table.rows());
    assertEquals("2 apps", table.message());
  }

  @Test
  void describeAppListsTheStatesEachLowerCaseKindAndConsistency() {
    StatementResult table =
        CatalogTables.describeApp(new AppState.Snapshot("a", false, null, List.of(counter("x"))));
    assertEquals(
        List.of(List.of("x", "Count_x", "x", "value", "STRING", "INT64", "memory", "exact")),
        table.rows());
    assertEquals("app a (disconnected, watermark none yet)", table.message());
    assertEquals(
        "app a (connected, watermark " + T + ")",
        CatalogTables.describeApp(new AppState.Snapshot("a", true, T, List.of())).message());
  }

  @Test
  void showTssSummarizesDefinitionsAndCounts() {
    TssState tss = new TssState(spec("t", 3, true, "a.x", "b.y"));
    tss.addPending(T);
    tss.addPending(minutes(5));
    tss.finish(tss.version(T).committed(minutes(1), null));
    StatementResult table = CatalogTables.showTss(List.of(tss));
    assertEquals(
        List.of(
            List.of(
                "t",
                "a.x, b.y",
                T.toString(),
                "300s",
                minutes(10).toString(),
                "yes",
                "no",
                "1",
                "1")),
        table.rows());
    assertEquals("1 TSS", table.message());
  }

  @Test
  void describeTssSaysWhereEachVersionStandsAndWhy() {
    AppRegistry apps = new AppRegistry(new CatalogStore(home));
    AppSession session = new AppSession(new RecordedStream());
    apps.register(session, new Registration("a", List.of(counter("x"))));
    apps.get("a").reportWatermark(minutes(11));
    apps.register(new AppSession(new RecordedStream()), new Registration("b", List.of()));
    apps.disconnected(apps.get("b").session());

    TssState tss = new TssState(spec("t", 5, true, "a.x", "b.y", "c.z"));
    for (int m = 0; m <= 15; m += 5) {
      tss.addPending(minutes(m));
    }
    tss.finish(tss.version(T).committed(minutes(1), null));
    tss.finish(tss.version(minutes(5)).committed(minutes(6), T));
    tss.finish(tss.version(minutes(10)).failedBy("a", "disk full"));
    LakeLayout lake = new LakeLayout("s3a://b/lake");

    StatementResult table = CatalogTables.describeTss(tss, apps, lake);
    assertEquals(List.of("version", "status", "detail", "path"), table.columns());
    assertEquals("CREATE TSS t ...", table.message());
    assertEquals(
        List.of(
            List.of(T.toString(), "committed", "at " + minutes(1), lake.versionDir("t", T)),
            List.of(
                minutes(5).toString(),
                "committed",
                "at " + minutes(6) + ", diff against " + T,
                lake.versionDir("t", minutes(5))),
            List.of(
                minutes(10).toString(),
                "failed",
                "app a: disk full",
                lake.versionDir("t", minutes(10))),
            List.of(
                minutes(15).toString(),
                "waiting",
                "waiting on a (watermark "
                    + minutes(11)
                    + "), b (disconnected, no watermark yet), c (not registered)",
                lake.versionDir("t", minutes(15)))),
        table.rows());

    for (String app : List.of("a", "b", "c")) {
      tss.seal(app, minutes(15), List.of());
    }
    tss.startCommit();
    assertEquals(
        List.of("committing", "all apps sealed"),
        CatalogTables.describeTss(tss, apps, lake).rows().get(3).subList(1, 3));
  }
}
