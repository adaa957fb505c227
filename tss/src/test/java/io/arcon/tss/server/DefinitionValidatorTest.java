package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.COUNTER;
import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.counter;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.CreateTss;
import io.arcon.tss.lang.StateRef;
import io.arcon.tss.lang.TssParser;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefinitionValidatorTest {
  @TempDir Path home;

  private AppRegistry apps;
  private TssCatalog tsss;
  private LakeLayout lake;
  private DefinitionValidator validator;

  @BeforeEach
  void catalog() {
    CatalogStore store = new CatalogStore(home);
    apps = new AppRegistry(store);
    tsss = new TssCatalog(store, apps);
    lake = LakeLayout.local(home.resolve("lake"));
    validator =
        new DefinitionValidator(
            apps, tsss, lake, new VersionCommitter(lake), new DroppedExtractions());
    StateDescriptor byNumber =
        new StateDescriptor(
            "n",
            "",
            "n",
            StateKind.VALUE,
            new StateSchema(FieldType.INT64, FieldType.STRING),
            "heap",
            Consistency.WATERMARK_CUT);
    apps.register(
        new AppSession(new RecordedStream()),
        new Registration("a", List.of(counter("clicks"), byNumber)));
  }

  private static CreateTss parse(String statement) {
    return (CreateTss) TssParser.parseOne(statement);
  }

  private ControlPlaneException refusal(String statement) {
    return assertThrows(ControlPlaneException.class, () -> validator.validate(parse(statement)));
  }

  @Test
  void aValidStatementBecomesADefinitionWithTheRegisteredSchemas() {
    String text =
        "CREATE TSS t AS EXTRACT a.clicks, a.n ON KEY '7' AT '2026-12-02 13:00:00'"
            + " FOR EACH 5 MINUTES UNTIL '2026-12-02 13:10:00' DIFF";
    TssSpec spec = validator.validate(parse(text + ";"));
    assertEquals("t", spec.name());
    assertEquals(text, spec.statement());
    assertEquals(
        List.of(
            new TssSpec.ExtractedState("a", "clicks", COUNTER),
            new TssSpec.ExtractedState(
                "a", "n", new StateSchema(FieldType.INT64, FieldType.STRING))),
        spec.states());
    assertEquals("7", spec.keyLiteral());
    assertEquals(T, spec.at());
    assertEquals(Duration.ofMinutes(5), spec.every());
    assertEquals(T.plusSeconds(600), spec.until());
    assertTrue(spec.diff());
    assertTrue(spec.createdAt() != null);
  }

  @Test
  void unknownAppsAndStatesAreNamedWithWhatExists() {
    ControlPlaneException app =
        refusal("CREATE TSS t AS EXTRACT b.clicks AT '2026-12-02 13:00:00';");
    assertEquals(Status.Code.NOT_FOUND, app.code());
    assertEquals("unknown app 'b'; registered apps: a", app.getMessage());
    ControlPlaneException state =
        refusal("CREATE TSS t AS EXTRACT a.views AT '2026-12-02 13:00:00';");
    assertEquals(Status.Code.NOT_FOUND, state.code());
    assertEquals("app a has no state 'views'; its states are: clicks, n", state.getMessage());
  }

  @Test
  void aStateExtractedTwiceIsRefused() {
    CreateTss twice =
        new CreateTss(
            "t",
            List.of(new StateRef("a", "clicks"), new StateRef("a", "clicks")),
            null,
            T,
            null,
            null,
            null,
            false,
            null,
            "CREATE TSS t ...");
    ControlPlaneException e =
        assertThrows(ControlPlaneException.class, () -> validator.validate(twice));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertEquals("a.clicks is extracted twice; name each state once", e.getMessage());
  }

  /**
   * Apps (and states) whose names differ only in case are distinct to TSS, but their tables would
   * be one in SQL, whose names ignore case: QUERY and TRANSFORM then failed with DuckDB's "already
   * exists".
   */
  @Test
  void statesWhoseTablesDifferOnlyInCaseAreRefused() {
    apps.register(
        new AppSession(new RecordedStream()), new Registration("A", List.of(counter("clicks"))));
    ControlPlaneException e =
        refusal("CREATE TSS t AS EXTRACT a.clicks, A.clicks AT '2026-12-02 13:00:00';");
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertEquals(
        "a.clicks and A.clicks differ only in case, but TRANSFORM and QUERY name a state's table"
            + " app.state in SQL, whose names ignore case: both would be one table. Extract them in"
            + " two TSSs, or run one of the apps under another --jobName.",
        e.getMessage());
    // Each on its own is fine.
    validator.validate(parse("CREATE TSS t AS EXTRACT A.clicks AT '2026-12-02 13:00:00';"));
  }

  @Test
  void aKeyThatDoesNotFitTheKeyTypeIsRefused() {
    ControlPlaneException e =
        refusal("CREATE TSS t AS EXTRACT a.n ON KEY 'abc' AT '2026-12-02 13:00:00';");
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertEquals(
        "ON KEY does not fit state a.n (key type INT64): key 'abc' is not a valid INT64 (give an"
            + " integer such as '42')",
        e.getMessage());
  }

  @Test
  void transformSqlIsBoundAgainstTheStates() {
    TssSpec good =
        validator.validate(
            parse(
                "CREATE TSS t AS EXTRACT a.clicks AT '2026-12-02 13:00:00'"
                    + " TRANSFORM 'SELECT key, value FROM a.clicks';"));
    validator.checkTransform(good);
    TssSpec bad =
        validator.validate(
            parse(
                "CREATE TSS t AS EXTRACT a.clicks AT '2026-12-02 13:00:00'"
                    + " TRANSFORM 'SELECT nope FROM a.clicks';"));
    ControlPlaneException e =
        assertThrows(ControlPlaneException.class, () -> validator.checkTransform(bad));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().startsWith("TRANSFORM is refused: "), e.getMessage());
  }

  @Test
  void aNameTakenInTheCatalogOrTheLakeIsRefused() throws Exception {
    tsss.add(new TssState(spec("t", 1, false, "a.clicks")));
    ControlPlaneException taken =
        refusal("CREATE TSS t AS EXTRACT a.clicks AT '2026-12-02 13:00:00';");
    assertEquals(Status.Code.ALREADY_EXISTS, taken.code());
    assertEquals("TSS t already exists; DROP TSS it first or pick a new name", taken.getMessage());
    assertThrows(ControlPlaneException.class, () -> validator.checkNoConflict("t"));

    validator.checkNoConflict("u");
    Files.createDirectories(home.resolve("lake/u/version=2026-12-02T12:00:00Z"));
    ControlPlaneException leftover =
        assertThrows(ControlPlaneException.class, () -> validator.checkNoConflict("u"));
    assertEquals(Status.Code.ALREADY_EXISTS, leftover.code());
    assertEquals(
        lake.tssDir("u")
            + " already holds files, not from a TSS this control plane knows; move them away or"
            + " pick another name",
        leftover.getMessage());
  }

  @Test
  void anAtOlderThanTheHistoryOfAnyExtractedAppIsRefusedNamingTheOldestTimeAvailable() {
    apps.register(
        new AppSession(new RecordedStream()), new Registration("b", List.of(counter("steps"))));
    Instant historyFrom = T.plus(Duration.ofMinutes(30));
    apps.get("b").reportWatermark(T.plus(Duration.ofHours(2)), historyFrom);
    // App a keeps its whole history.
    apps.get("a").reportWatermark(T.plus(Duration.ofHours(2)));

    ControlPlaneException e =
        refusal("CREATE TSS t AS EXTRACT a.clicks, b.steps AT '2026-12-02 13:29:59.999';");
    assertEquals(Status.Code.OUT_OF_RANGE, e.code());
    Instant at = historyFrom.minusMillis(1);
    assertEquals(
        "app b keeps state history from "
            + historyFrom
            + "; AT "
            + at
            + " is older. Use AT >= "
            + historyFrom
            + " or run the app with a longer --stateHistory",
        e.getMessage());

    assertEquals(
        historyFrom,
        validator
            .validate(parse("CREATE TSS t AS EXTRACT a.clicks, b.steps AT '2026-12-02 13:30:00';"))
            .at());
    assertEquals(
        T,
        validator
            .validate(parse("CREATE TSS t AS EXTRACT a.clicks AT '2026-12-02 13:00:00';"))
            .at());
    // A report without a horizon lifts it.
    apps.get("b").reportWatermark(T.plus(Duration.ofHours(3)));
    assertEquals(
        T,
        validator
            .validate(parse("CREATE TSS t AS EXTRACT b.steps AT '2026-12-02 13:00:00';"))
            .at());
  }

  @Test
  void aWatermarkCutStateNeedsAnAtAfterTheAppsWatermarkWhileAnExactOneKeepsItsHistory() {
    // No watermark yet: nothing has passed, any AT will be recorded.
    assertEquals(
        T, validator.validate(parse("CREATE TSS t AS EXTRACT a.n AT '2026-12-02 13:00:00';")).at());

    Instant watermark = T.plus(Duration.ofMinutes(10));
    apps.get("a").reportWatermark(watermark);
    ControlPlaneException e =
        refusal("CREATE TSS t AS EXTRACT a.clicks, a.n AT '2026-12-02 13:10:00';");
    assertEquals(Status.Code.OUT_OF_RANGE, e.code());
    assertEquals(
        "state a.n is a watermark cut: app a keeps its history only while a TSS reads it, and its"
            + " watermark is at "
            + watermark
            + "; AT "
            + watermark
            + " is not after it. Use an AT after "
            + watermark
            + ", or export the transform exactly (--tssExport) to keep its history all along",
        e.getMessage());

    assertEquals(
        watermark.plusMillis(1),
        validator
            .validate(parse("CREATE TSS t AS EXTRACT a.n AT '2026-12-02 13:10:00.001';"))
            .at());
    // The exact state of the same app is read from its kept history.
    assertEquals(
        T,
        validator
            .validate(parse("CREATE TSS t AS EXTRACT a.clicks AT '2026-12-02 13:00:00';"))
            .at());
  }
}
