package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogTablesTest {
  @TempDir Path home;

  @Test
  void showAppsListsEveryAppWithItsLiveState() {
    StatementResult table =
        CatalogTables.showApps(
            List.of(
                new AppState.Snapshot(
                    "a", true, T, minutes(-60), null, List.of(counter("x"), counter("y"))),
                new AppState.Snapshot("b", false, null, null, minutes(3), List.of())));
    assertEquals(
        List.of("app", "connected", "watermark", "history_from", "finished_at", "states"),
        table.columns());
    assertEquals(
        List.of(
            List.of("a", "yes", T.toString(), minutes(-60).toString(), "-", "2"),
            List.of("b", "no", "-", "-", minutes(3).toString(), "0")),
        table.rows());
    assertEquals("2 apps", table.message());
  }

  @Test
  void describeAppListsTheStatesEachLowerCaseKindAndConsistency() {
    StatementResult table =
        CatalogTables.describeApp(
            new AppState.Snapshot("a", false, null, null, null, List.of(counter("x"))));
    assertEquals(
        List.of(
            List.of("x", "Count_x", "x", "value", "STRING", "INT64", "memory", "exact", "kept")),
        table.rows());
    assertEquals("app a (disconnected, watermark none yet)", table.message());
    assertEquals(
        "app a (connected, watermark " + T + ")",
        CatalogTables.describeApp(new AppState.Snapshot("a", true, T, null, null, List.of()))
            .message());
    assertEquals(
        "app a (connected, watermark "
            + T
            + ", history from "
            + minutes(-60)
            + ", finished at "
            + minutes(1)
            + ")",
        CatalogTables.describeApp(
                new AppState.Snapshot("a", true, T, minutes(-60), minutes(1), List.of()))
            .message());
  }

  @Test
  void describeAppNamesTheCoderOfOpaqueValuesAtAnyDepthAndDashesWhatWasNotReported() {
    String coder = "SerializableCoder(com.example.Session)";
    FieldType value =
        RowType.of(
            Field.of("user", FieldType.STRING),
            Field.of("sessions", new ListType(OpaqueType.of(coder))),
            Field.required("by_page", new MapType(FieldType.STRING, OpaqueType.of("VarIntCoder"))));
    StateDescriptor state =
        new StateDescriptor(
            "sessions",
            "Sessionize",
            "sessions",
            StateKind.BAG,
            new StateSchema(OpaqueType.of("MyKeyCoder"), value),
            "rocksdb",
            Consistency.WATERMARK_CUT);
    StateDescriptor bare =
        new StateDescriptor(
            "n",
            null,
            null,
            null,
            new StateSchema(FieldType.INT64, FieldType.OPAQUE),
            null,
            Consistency.CONSISTENCY_UNSPECIFIED);
    StateDescriptor exact =
        new StateDescriptor(
            "total",
            "Sum",
            "total",
            StateKind.VALUE,
            new StateSchema(FieldType.STRING, FieldType.INT64),
            "heap",
            Consistency.EXACT);
    StateDescriptor unread =
        new StateDescriptor(
            "hits",
            "Count",
            "hits",
            StateKind.VALUE,
            new StateSchema(FieldType.STRING, FieldType.INT64),
            "heap",
            Consistency.WATERMARK_CUT);
    StatementResult table =
        CatalogTables.describeApp(
            new AppState.Snapshot(
                "a", true, T, null, null, List.of(state, bare, exact, unread), Set.of("sessions")));
    assertEquals(
        List.of(
            "state",
            "transform",
            "state_id",
            "kind",
            "key_type",
            "value_type",
            "backend",
            "consistency",
            "history"),
        table.columns());
    assertEquals(
        List.of(
            List.of(
                "sessions",
                "Sessionize",
                "sessions",
                "bag",
                "OPAQUE(MyKeyCoder)",
                "ROW<user STRING, sessions LIST<OPAQUE("
                    + coder
                    + ")>, by_page MAP<STRING,"
                    + " OPAQUE(VarIntCoder)> NOT NULL>",
                "rocksdb",
                "watermark_cut",
                "recording"),
            List.of("n", "-", "n", "-", "INT64", "OPAQUE", "-", "-", "-"),
            List.of("total", "Sum", "total", "value", "STRING", "INT64", "heap", "exact", "kept"),
            List.of(
                "hits",
                "Count",
                "hits",
                "value",
                "STRING",
                "INT64",
                "heap",
                "watermark_cut",
                "not recorded")),
        table.rows());
  }

  @Test
  void showTssSummarizesDefinitionsAndCounts() {
    TssState tss = new TssState(spec("t", 3, true, "a.x", "b.y"));
    tss.addPending(T);
    tss.addPending(minutes(5));
    tss.addPending(minutes(10));
    tss.finish(tss.version(T).committed(minutes(1), null));
    tss.finish(tss.version(minutes(5)).failedBy("a", "disk full"));
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
                "1",
                "1")),
        table.rows());
    assertEquals("1 TSS", table.message());
  }

  @Test
  void describeTssSaysWhereEachVersionStandsAndWhy() {
    CatalogStore store = new CatalogStore(home);
    AppRegistry apps = new AppRegistry(store);
    TssCatalog tsss = new TssCatalog(store, apps);
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
    VersionScheduler scheduler = new VersionScheduler(apps, tsss, lake);

    StatementResult table = CatalogTables.describeTss(tss, apps, scheduler, lake);
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

    // Past the version and connected: assigned, extracting now.
    apps.get("a").reportWatermark(minutes(16));
    tss.seal("b", minutes(15), List.of());
    tss.seal("c", minutes(15), List.of());
    assertEquals(
        List.of("extracting", "waiting on a (extracting, watermark " + minutes(16) + ")"),
        CatalogTables.describeTss(tss, apps, scheduler, lake).rows().get(3).subList(1, 3));

    for (String app : List.of("a")) {
      tss.seal(app, minutes(15), List.of());
    }
    tss.startCommit();
    assertEquals(
        List.of("committing", "all apps sealed"),
        CatalogTables.describeTss(tss, apps, scheduler, lake).rows().get(3).subList(1, 3));
  }
}
