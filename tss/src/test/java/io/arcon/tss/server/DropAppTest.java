package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.minutes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code DROP APP}: forgets a stopped app no TSS depends on, durably; refuses the others. */
class DropAppTest {
  @TempDir Path home;

  private LakeLayout lake;
  private ControlPlane plane;

  @BeforeEach
  void start() {
    lake = LakeLayout.local(home.resolve("lake"));
    plane = CatalogFixtures.startedPlane(home, lake);
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  private AppSession register(String app, String... states) {
    return CatalogFixtures.register(plane, new RecordedStream(), app, states);
  }

  private List<String> appNames() {
    return plane.showApps().stream().map(AppState.Snapshot::name).toList();
  }

  private ControlPlaneException refusal(String statement) {
    return assertThrows(ControlPlaneException.class, () -> plane.execute(statement));
  }

  @Test
  void aStoppedAppIsForgottenAlsoAfterARestartAndComesBackWhenItRegistersAgain() {
    AppSession a = register("a", "x");
    register("b", "y");
    plane.disconnected(a);
    Path catalogFile = home.resolve("catalog/apps/a.json");
    assertTrue(Files.exists(catalogFile), "precondition: the app is in the catalog");

    String message = plane.execute("DROP APP a;").message();

    assertTrue(message.startsWith("app a dropped from the catalog"), message);
    assertEquals(List.of("b"), appNames());
    assertFalse(Files.exists(catalogFile));
    plane.close();
    plane = CatalogFixtures.startedPlane(home, lake);
    assertEquals(List.of("b"), appNames(), "the drop survives a restart");
    assertEquals(
        Status.Code.NOT_FOUND,
        assertThrows(ControlPlaneException.class, () -> plane.describeApp("a")).code());

    register("a", "z");
    assertEquals(List.of("a", "b"), appNames());
    assertEquals("z", plane.describeApp("a").states().get(0).name());
  }

  @Test
  void aRunningAppIsRefused() {
    register("a", "x");

    ControlPlaneException refused = refusal("DROP APP a");

    assertEquals(Status.Code.FAILED_PRECONDITION, refused.code());
    assertTrue(refused.getMessage().startsWith("app a is running (connected since "));
    assertTrue(
        refused
            .getMessage()
            .endsWith("stop its pipeline first: DROP APP forgets only apps that are not running"));
    assertEquals(List.of("a"), appNames());
  }

  @Test
  void anAppWhoseStateATssExtractsIsRefusedUntilTheTssIsDropped() {
    AppSession a = register("a", "x");
    register("b", "y");
    plane.execute("CREATE TSS t1 AS EXTRACT a.x, b.y AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
    plane.execute("CREATE TSS t2 AS EXTRACT a.x AT '2026-12-02 13:00:00';");
    plane.execute("CREATE TSS t3 AS EXTRACT b.y AT '2026-12-02 13:00:00';");
    plane.watermark(a, minutes(1));
    plane.disconnected(a);

    ControlPlaneException refused = refusal("DROP APP a");

    assertEquals(Status.Code.FAILED_PRECONDITION, refused.code());
    assertEquals(
        "TSSs t1, t2 extract the state of app a; DROP TSS them first (which removes their"
            + " versions from the lake), or keep the app",
        refused.getMessage());
    plane.execute("DROP TSS t1");
    assertEquals(
        "TSS t2 extracts the state of app a; DROP TSS it first (which removes its versions from"
            + " the lake), or keep the app",
        refusal("DROP APP a").getMessage());
    plane.execute("DROP TSS t2");

    plane.execute("DROP APP a");

    assertEquals(List.of("b"), appNames());
    assertEquals(1, plane.describeTss("t3").rows().size(), "another app's TSS is untouched");
  }

  @Test
  void unknownAndInvalidNamesAreRefused() {
    register("a", "x");

    ControlPlaneException unknown = refusal("DROP APP nosuch");
    assertEquals(Status.Code.NOT_FOUND, unknown.code());
    assertEquals("unknown app 'nosuch'; registered apps: a", unknown.getMessage());

    ControlPlaneException invalid =
        assertThrows(ControlPlaneException.class, () -> plane.dropApp("../a"));
    assertEquals(Status.Code.INVALID_ARGUMENT, invalid.code());
  }
}
