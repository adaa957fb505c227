package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.proto.TypeSpec;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.StateInfos;
import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireFormsTest {

  @Test
  void aDefinitionSurvivesItsProtobufForm() {
    TssSpec spec = spec("t", 3, true, "a.x", "b.Count.y");
    TssDefinition d = WireForms.definition(spec);
    assertEquals("b", d.getStates(1).getApp());
    assertEquals("Count.y", d.getStates(1).getState());
    assertEquals(300, d.getEvery().getSeconds());
    assertFalse(d.hasKeyLiteral());
    assertFalse(d.hasTransformSql());
    assertEquals(spec, WireForms.spec(d));

    TssSpec full =
        new TssSpec(
            "k",
            "s",
            spec.states(),
            "alice",
            T,
            "Europe/Stockholm",
            null,
            null,
            false,
            "SELECT 1",
            null);
    assertEquals(full, WireForms.spec(WireForms.definition(full)));
    assertFalse(WireForms.definition(full).hasCreatedAt());
  }

  @Test
  void aVersionSurvivesItsProtobufForm() {
    Version v =
        Version.pending(minutes(5), List.of("a", "b"))
            .sealed("a", List.of(new SealedFile("x", "/lake/x", 4)))
            .failedBy("b", "disk full");
    VersionRecord r = WireForms.record(v);
    assertEquals(VersionStatus.FAILED, r.getStatus());
    assertEquals(4, r.getApps(0).getFiles(0).getRows());
    assertFalse(r.hasCommittedAt());
    assertEquals(v, WireForms.version(r));
    Version committed = Version.pending(minutes(5), List.of()).committed(minutes(6), T);
    assertEquals(committed, WireForms.version(WireForms.record(committed)));
    assertThrows(
        IllegalStateException.class,
        () ->
            WireForms.version(VersionRecord.newBuilder().setVersion(ProtoTime.toProto(T)).build()));
  }

  @Test
  void anAppIsPersistedWithoutItsLiveFacts() {
    AppState app = new AppState("a", List.of(counter("x")));
    app.reportWatermark(T);
    AppInfo persisted = WireForms.persistedApp(app);
    assertFalse(persisted.getSummary().getConnected());
    assertFalse(persisted.getSummary().hasWatermark());
    assertEquals(1, persisted.getSummary().getStateCount());
    assertEquals(app.snapshot().states(), WireForms.app(persisted).states());
    AppInfo live =
        WireForms.appInfo(
            new AppState.Snapshot("a", true, T, T.minusSeconds(60), null, app.states()));
    assertTrue(live.getSummary().getConnected());
    assertEquals(T, ProtoTime.toInstant(live.getSummary().getWatermark()));
    assertEquals(T.minusSeconds(60), ProtoTime.toInstant(live.getSummary().getHistoryFrom()));
    assertFalse(live.getSummary().hasFinishedAt());
  }

  @Test
  void aFinishedAppKeepsItsEndInTheCatalogButNotItsHorizon() {
    AppState app = new AppState("a", List.of(counter("x")));
    app.reportWatermark(T, T.minusSeconds(60));
    app.finish(T.plusSeconds(5));
    AppInfo persisted = WireForms.persistedApp(app);
    assertFalse(persisted.getSummary().hasHistoryFrom());
    AppState restored = WireForms.app(persisted);
    assertEquals(T.plusSeconds(5), restored.finishedAt());
    assertFalse(restored.connected());
    assertEquals(null, restored.historyFrom());
  }

  @Test
  void aRegistrationIsCheckedNamesFirst() {
    Register good =
        Register.newBuilder()
            .setApp("a")
            .addStates(StateInfos.toProto(counter("x")))
            .addStates(StateInfos.toProto(counter("y")))
            .build();
    assertEquals(
        new Registration("a", List.of(counter("x"), counter("y"))), WireForms.registration(good));

    Register badSchema =
        Register.newBuilder()
            .setApp("a")
            .addStates(
                StateInfos.toProto(counter("x")).toBuilder()
                    .setKeyType(TypeSpec.getDefaultInstance()))
            .build();
    assertEquals(
        "state a.x has a bad schema: type spec is empty: set one of primitive, row, list, map,"
            + " opaque",
        refusal(badSchema).getMessage());
    assertTrue(
        refusal(badSchema.toBuilder().setApp("../evil").build())
            .getMessage()
            .startsWith("invalid app name '../evil'"),
        "the app name is checked before any schema");
    assertEquals(
        "app a registers state 'x' twice; state names are unique",
        refusal(good.toBuilder().addStates(StateInfos.toProto(counter("x"))).build()).getMessage());
    assertTrue(
        refusal(
                good.toBuilder()
                    .addStates(StateInfos.toProto(counter("x")).toBuilder().setName("a/../b"))
                    .build())
            .getMessage()
            .startsWith("invalid state name 'a/../b'"));
  }

  private static ControlPlaneException refusal(Register register) {
    ControlPlaneException e =
        assertThrows(ControlPlaneException.class, () -> WireForms.registration(register));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    return e;
  }
}
