package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.AppVersionState;
import io.arcon.tss.proto.TssCatalogEntry;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.TypeSpecs;
import io.arcon.tss.write.ParquetVersionReader;
import io.arcon.tss.write.ParquetVersionWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control plane died after every app sealed a DIFF version and after the commit had already
 * staged the full rows, but before the diff and {@code _COMMITTED} were written: the restarted
 * control plane must finish the commit from the staged rows.
 */
class CommitRecoveryTest {
  private static final Instant V1 = Instant.parse("2026-12-02T13:00:00Z");
  private static final Instant V2 = Instant.parse("2026-12-02T13:05:00Z");
  private static final StateSchema SCHEMA = new StateSchema(FieldType.STRING, FieldType.INT64);

  @TempDir Path home;

  @Test
  void aHalfDoneDiffCommitIsFinishedAfterARestart() throws Exception {
    LakeLayout lake = new LakeLayout(home.resolve("lake").toString());
    ParquetVersionWriter writer = new ParquetVersionWriter();
    StateRow alice1 = new StateRow("alice", null, 1L, V1.minusSeconds(60));
    StateRow alice2 = new StateRow("alice", null, 2L, V2.minusSeconds(60));
    StateRow bob = new StateRow("bob", null, 7L, V2.minusSeconds(30));
    // V1 committed earlier: its full rows are staged.
    writer.writeVersion(lake.fullStateFile("t", V1, "app", "s"), SCHEMA, List.of(alice1), V1);
    // V2: the crash hit after the agent's full rows were moved to the staging area.
    writer.writeVersion(lake.fullStateFile("t", V2, "app", "s"), SCHEMA, List.of(alice2, bob), V2);

    TssDefinition definition =
        TssDefinition.newBuilder()
            .setName("t")
            .setStatement("CREATE TSS t AS EXTRACT app.s AT '...' FOR EACH 5 MINUTES DIFF")
            .addStates(
                TssDefinition.StateRef.newBuilder()
                    .setApp("app")
                    .setState("s")
                    .setKeyType(TypeSpecs.toProto(SCHEMA.keyType()))
                    .setValueType(TypeSpecs.toProto(SCHEMA.valueType())))
            .setAt(ProtoTime.toProto(V1))
            .setEvery(com.google.protobuf.Duration.newBuilder().setSeconds(300))
            .setUntil(ProtoTime.toProto(V2))
            .setDiff(true)
            .build();
    CatalogStore store = new CatalogStore(home);
    store.saveTss(
        TssCatalogEntry.newBuilder()
            .setDefinition(definition)
            .addVersions(
                VersionRecord.newBuilder()
                    .setVersion(ProtoTime.toProto(V2))
                    .setStatus(VersionStatus.PENDING)
                    .addApps(AppVersionState.newBuilder().setApp("app").setSealed(true)))
            .build());
    store.appendFinalVersion(
        "t",
        VersionRecord.newBuilder()
            .setVersion(ProtoTime.toProto(V1))
            .setStatus(VersionStatus.COMMITTED)
            .build());

    try (ControlPlaneServer server =
        ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null))) {
      Path marker = home.resolve("lake/t/version=2026-12-02T13:05:00Z/_COMMITTED");
      TestSupport.await("the recovered commit", () -> Files.exists(marker));
    }
    List<StateChange> diff =
        new ParquetVersionReader().read(lake.stateFile("t", V2, "app", "s")).changes();
    assertEquals(
        List.of(new StateChange(ChangeOp.UPDATE, alice2), new StateChange(ChangeOp.INSERT, bob)),
        diff);
    assertFalse(
        Files.exists(home.resolve("lake/t/_full/version=2026-12-02T13:00:00Z")),
        "the older staged rows should be gone");
    assertTrue(Files.exists(home.resolve("lake/t/_full/version=2026-12-02T13:05:00Z")));
  }
}
