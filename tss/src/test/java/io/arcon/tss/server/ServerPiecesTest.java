package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Duration;
import io.arcon.tss.TssDefaults;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.proto.TssCatalogEntry;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerPiecesTest {
  private static final Instant AT = Instant.parse("2026-12-02T13:00:00Z");

  @TempDir Path home;

  private static TssDefinition.Builder definition(String name) {
    return TssDefinition.newBuilder().setName(name).setAt(ProtoTime.toProto(AT));
  }

  /** The schedule of a definition as the catalog file holds it. */
  private static VersionSchedule schedule(TssDefinition definition) {
    return VersionSchedule.of(WireForms.spec(definition));
  }

  @Test
  void scheduleRunsFromAtByEveryUntilUntilInclusive() {
    VersionSchedule schedule =
        schedule(
            definition("t")
                .setEvery(Duration.newBuilder().setSeconds(300))
                .setUntil(ProtoTime.toProto(AT.plusSeconds(600)))
                .build());
    assertEquals(AT, schedule.first());
    assertEquals(AT.plusSeconds(300), schedule.next(AT));
    assertEquals(AT.plusSeconds(600), schedule.next(AT.plusSeconds(300)));
    assertNull(schedule.next(AT.plusSeconds(600)));
    assertNull(schedule(definition("once").build()).next(AT), "no FOR EACH: one version");
    VersionSchedule unbounded =
        schedule(definition("u").setEvery(Duration.newBuilder().setSeconds(60)).build());
    assertEquals(
        AT.plusSeconds(3600 * 24 * 365), unbounded.next(AT.plusSeconds(3600 * 24 * 365 - 60)));
  }

  @Test
  void catalogIsReloadedAndWrittenWithoutLeftovers() throws Exception {
    CatalogStore store = new CatalogStore(home);
    TssCatalogEntry entry =
        TssCatalogEntry.newBuilder()
            .setDefinition(definition("t").setStatement("CREATE TSS t ..."))
            .addVersions(
                VersionRecord.newBuilder()
                    .setVersion(ProtoTime.toProto(AT))
                    .setStatus(VersionStatus.COMMITTED))
            .build();
    store.saveTss(entry);
    store.saveTss(entry);
    assertEquals(List.of(entry), new CatalogStore(home).loadTss());
    try (Stream<Path> files = Files.list(home.resolve("catalog/tss"))) {
      assertEquals(List.of("t.json"), files.map(p -> p.getFileName().toString()).toList());
    }
    store.deleteTss("t");
    assertEquals(List.of(), new CatalogStore(home).loadTss());
  }

  @Test
  void finalVersionsAreAppendedAndATornTailIsCutOff() throws Exception {
    CatalogStore store = new CatalogStore(home);
    VersionRecord first =
        VersionRecord.newBuilder()
            .setVersion(ProtoTime.toProto(AT))
            .setStatus(VersionStatus.COMMITTED)
            .build();
    VersionRecord second =
        first.toBuilder()
            .setVersion(ProtoTime.toProto(AT.plusSeconds(60)))
            .setStatus(VersionStatus.FAILED)
            .setFailure("app a: disk full")
            .build();
    store.appendFinalVersion("t", first);
    store.appendFinalVersion("t", second);
    assertEquals(List.of(first, second), store.loadFinalVersions("t"));

    // A crash in the middle of an append leaves a partial record at the end.
    Path log = home.resolve("catalog/tss/t.versions");
    long intact = Files.size(log);
    byte[] third = second.toBuilder().setFailure("x".repeat(50)).build().toByteArray();
    Files.write(
        log,
        new byte[] {(byte) third.length, third[0], third[1]},
        java.nio.file.StandardOpenOption.APPEND);
    assertEquals(List.of(first, second), store.loadFinalVersions("t"));
    assertEquals(intact, Files.size(log), "the torn record was not cut off");
    store.appendFinalVersion("t", first);
    assertEquals(List.of(first, second, first), store.loadFinalVersions("t"));
  }

  @Test
  void aCorruptCatalogFileIsNamedInTheError() throws Exception {
    Files.createDirectories(home.resolve("catalog/tss"));
    Files.writeString(home.resolve("catalog/tss/broken.json"), "{ not json");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new CatalogStore(home).loadTss());
    assertTrue(
        e.getMessage().startsWith("catalog file " + home.resolve("catalog/tss/broken.json")),
        e.getMessage());
  }

  @Test
  void commandLineOptionsBecomeAServerConfig() {
    ServerConfig config =
        ControlPlaneServer.parseArgs(
            new String[] {
              "--home",
              home.toString(),
              "--lake",
              "s3a://bucket/lake",
              "--port",
              "0",
              "--bind",
              "0.0.0.0",
              "--token",
              "t0k"
            });
    assertEquals(new ServerConfig(home, "s3a://bucket/lake", "0.0.0.0", 0, "t0k"), config);
    ServerConfig defaults = ControlPlaneServer.parseArgs(new String[] {"--home", home.toString()});
    assertEquals(TssDefaults.PORT, defaults.port());
    assertEquals("127.0.0.1", defaults.bindHost());
    assertEquals(home.resolve("lake").toString(), defaults.lake());
    assertEquals(
        "--port needs a number, got 'x'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ControlPlaneServer.parseArgs(new String[] {"--port", "x"}))
            .getMessage());
    assertEquals(
        "unknown option --hme",
        assertThrows(
                IllegalArgumentException.class,
                () -> ControlPlaneServer.parseArgs(new String[] {"--hme", "x"}))
            .getMessage());
  }

  @Test
  void lakePathsAreUrisWithTheVersionTime() {
    LakeLayout lake = new LakeLayout(home.resolve("lake") + "/");
    assertEquals(home.resolve("lake").toUri().toString().replaceAll("/$", ""), lake.root());
    assertEquals(
        lake.root() + "/t/version=2026-12-02T13:00:00Z/app/Count.clicks/part-0.parquet",
        lake.stateFile("t", AT, "app", "Count.clicks"));
    assertEquals(
        lake.root() + "/t/_full/version=2026-12-02T13:00:00Z/app/s/part-0.parquet",
        lake.fullStateFile("t", AT, "app", "s"));
    assertEquals("s3a://b/lake", new LakeLayout("s3a://b/lake/").root());
  }

  @Test
  void anUnreachableControlPlaneIsReportedWithWhatToDo() {
    int port = TestSupport.freePort();
    try (TssClient client = TssClient.connect("127.0.0.1", port, null)) {
      TssClientException e = assertThrows(TssClientException.class, client::showApps);
      assertEquals(Status.Code.UNAVAILABLE, e.code());
      assertTrue(
          e.getMessage().startsWith("cannot reach the TSS control plane at 127.0.0.1:" + port),
          e.getMessage());
      assertTrue(
          e.getMessage().endsWith("start one with `tss server` or pass --endpoint host:port"));
    }
  }
}
