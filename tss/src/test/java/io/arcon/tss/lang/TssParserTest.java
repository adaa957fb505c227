package io.arcon.tss.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TssParserTest {

  @Test
  void showApps() {
    assertEquals(new ShowApps(), TssParser.parseOne("SHOW APPS;"));
    assertEquals(new ShowApps(), TssParser.parseOne("show apps"));
  }

  @Test
  void showTss() {
    assertEquals(new ShowTss(), TssParser.parseOne("Show Tss ;"));
  }

  @Test
  void describeApp() {
    assertEquals(new DescribeApp("clicks_app"), TssParser.parseOne("DESCRIBE APP clicks_app;"));
  }

  @Test
  void describeTss() {
    assertEquals(new DescribeTss("My_Tss2"), TssParser.parseOne("describe tss My_Tss2"));
  }

  @Test
  void dropTss() {
    assertEquals(new DropTss("_t"), TssParser.parseOne("DROP TSS _t;"));
  }

  @Test
  void dropApp() {
    assertEquals(new DropApp("clicks"), TssParser.parseOne("drop app clicks;"));
    assertEquals(new DropApp("app"), TssParser.parseOne("DROP APP app"));
  }

  @Test
  void minimalCreate() {
    String text = "CREATE TSS t AS EXTRACT app1.clicks AT '2026-12-02 13:00'";
    assertEquals(
        new CreateTss(
            "t",
            List.of(new StateRef("app1", "clicks")),
            null,
            Instant.parse("2026-12-02T13:00:00Z"),
            null,
            null,
            null,
            false,
            null,
            text),
        TssParser.parseOne(text + ";"));
  }

  @Test
  void createWithEveryClause() {
    String text =
        "CREATE TSS my_tss AS\n"
            + "  EXTRACT app1.clicks, app2.steps, app1.CountClicks.count\n"
            + "  ON KEY 'o''brien'\n"
            + "  AT '2026-12-02 13:00:00' TIME ZONE 'Europe/Stockholm'\n"
            + "  FOR EACH 5 MINUTES UNTIL '2026-12-02 14:00:00'\n"
            + "  DIFF\n"
            + "  TRANSFORM 'SELECT c.key FROM app1.clicks c WHERE c.key <> ''x'''";
    assertEquals(
        new CreateTss(
            "my_tss",
            List.of(
                new StateRef("app1", "clicks"),
                new StateRef("app2", "steps"),
                new StateRef("app1", "CountClicks.count")),
            "o'brien",
            Instant.parse("2026-12-02T12:00:00Z"),
            "Europe/Stockholm",
            Duration.ofMinutes(5),
            Instant.parse("2026-12-02T13:00:00Z"),
            true,
            "SELECT c.key FROM app1.clicks c WHERE c.key <> 'x'",
            text),
        TssParser.parseOne(text + "\n;"));
  }

  @Test
  void everyUnitInSingularAndPlural() {
    String prefix = "CREATE TSS t AS EXTRACT a.s AT '2026-12-02T13:00:00Z' FOR EACH ";
    assertEquals(Duration.ofSeconds(1), every(prefix + "1 SECOND"));
    assertEquals(Duration.ofSeconds(30), every(prefix + "30 seconds"));
    assertEquals(Duration.ofMinutes(1), every(prefix + "1 minute"));
    assertEquals(Duration.ofMinutes(15), every(prefix + "15 MINUTES"));
    assertEquals(Duration.ofHours(1), every(prefix + "1 Hour"));
    assertEquals(Duration.ofHours(2), every(prefix + "2 HOURS"));
    // DAY is a fixed 24 hours, not a calendar day.
    assertEquals(Duration.ofHours(24), every(prefix + "1 DAY"));
    assertEquals(Duration.ofHours(24 * 3650), every(prefix + "3650 DAYS"));
  }

  private static Duration every(String statement) {
    return ((CreateTss) TssParser.parseOne(statement)).every();
  }

  @Test
  void diffWithoutPeriodAndTransformOnly() {
    CreateTss diff =
        (CreateTss) TssParser.parseOne("CREATE TSS d AS EXTRACT a.s AT '2026-12-02 13:00' DIFF");
    assertTrue(diff.diff());
    CreateTss transform =
        (CreateTss)
            TssParser.parseOne(
                "CREATE TSS x AS EXTRACT a.s AT '2026-12-02 13:00' TRANSFORM 'SELECT 1'");
    assertEquals("SELECT 1", transform.transformSql());
    assertEquals(false, transform.diff());
  }

  @Test
  void keywordsAreAcceptedAsNames() {
    CreateTss create =
        (CreateTss)
            TssParser.parseOne(
                "CREATE TSS version AS EXTRACT time.key, diff.Count.at AT '2026-12-02 13:00'");
    assertEquals("version", create.name());
    assertEquals(
        List.of(new StateRef("time", "key"), new StateRef("diff", "Count.at")), create.states());
    assertEquals(new DescribeApp("apps"), TssParser.parseOne("DESCRIBE APP apps"));
    assertEquals(new DropTss("TSS"), TssParser.parseOne("DROP TSS TSS"));
  }

  @Test
  void onKeyAcceptsEmptyAndQuotedKeys() {
    String base = "CREATE TSS t AS EXTRACT a.s ON KEY %s AT '2026-12-02 13:00'";
    assertEquals("", ((CreateTss) TssParser.parseOne(base.formatted("''"))).keyLiteral());
    assertEquals("'", ((CreateTss) TssParser.parseOne(base.formatted("''''"))).keyLiteral());
    assertEquals(
        "bob; -- not a comment",
        ((CreateTss) TssParser.parseOne(base.formatted("'bob; -- not a comment'"))).keyLiteral());
  }

  @Test
  void scriptWithCommentsAndEmptyStatements() {
    String script =
        "-- list everything\n"
            + "SHOW APPS;;\n"
            + "  show tss -- trailing comment\n"
            + ";DESCRIBE TSS a -- no terminator at the end";
    assertEquals(
        List.of(new ShowApps(), new ShowTss(), new DescribeTss("a")), TssParser.parse(script));
    assertEquals(List.of(), TssParser.parse(""));
    assertEquals(List.of(), TssParser.parse(" ;; -- nothing\n"));
  }

  @Test
  void createTextIsTheStatementAsWrittenWithoutTerminator() {
    List<Statement> statements =
        TssParser.parse(
            "SHOW APPS; create tss t as extract a.s -- c\n at '2026-12-02 13:00' ; SHOW TSS");
    assertEquals(
        "create tss t as extract a.s -- c\n at '2026-12-02 13:00'",
        ((CreateTss) statements.get(1)).text());
  }

  @Test
  void positionsInScriptsCountFromTheWholeScript() {
    TssSyntaxException e =
        assertThrows(
            TssSyntaxException.class,
            () -> TssParser.parse("SHOW APPS;\nSHOW TSS;\n  DROP TSS a.b;"));
    assertEquals(3, e.line());
    assertEquals(13, e.column());
    assertEquals(".", e.offendingToken());
    assertEquals("';' or end of input", e.expected());
  }

  @Test
  void aNameTooLongForAFileNameIsRefusedWhereItStands() {
    String name = "a".repeat(121);
    TssSyntaxException e =
        assertThrows(
            TssSyntaxException.class,
            () ->
                TssParser.parseOne(
                    "CREATE TSS " + name + " AS EXTRACT x.y AT '2026-12-02 13:00:00';"));
    assertEquals(1, e.line());
    assertEquals(12, e.column());
    assertEquals("a name of at most 120 characters", e.expected());
    assertEquals(
        120,
        ((CreateTss)
                TssParser.parseOne(
                    "CREATE TSS "
                        + name.substring(1)
                        + " AS EXTRACT x.y AT '2026-12-02 13:00:00';"))
            .name()
            .length());
    assertThrows(TssSyntaxException.class, () -> TssParser.parseOne("DESCRIBE APP " + name));
    assertThrows(
        TssSyntaxException.class,
        () ->
            TssParser.parseOne("CREATE TSS t AS EXTRACT x." + name + " AT '2026-12-02 13:00:00';"));
  }

  @Test
  void parseOneRejectsASecondStatement() {
    TssSyntaxException e =
        assertThrows(TssSyntaxException.class, () -> TssParser.parseOne("SHOW APPS; SHOW TSS"));
    assertEquals("line 1:12: unexpected 'SHOW' — expected end of input", e.getMessage());
  }

  @Test
  void versionQueryWithTimeZone() {
    assertEquals(
        new VersionQuery(
            "my_tss",
            Instant.parse("2026-12-02T12:00:00Z"),
            "SELECT count(*) FROM app1.clicks WHERE key = ';'"),
        TssParser.parseQuery(
            "query my_tss VERSION '2026-12-02 13:00' TIME ZONE 'Europe/Stockholm'\n"
                + "SELECT count(*) FROM app1.clicks WHERE key = ';' ;"));
  }

  @Test
  void versionQueryLatest() {
    assertEquals(
        new VersionQuery("t", null, "SELECT * FROM a.s"),
        TssParser.parseQuery("QUERY t SELECT * FROM a.s"));
    assertEquals(
        new VersionQuery("t", null, "WITH x AS (SELECT 1) SELECT * FROM x"),
        TssParser.parseQuery("QUERY t LATEST WITH x AS (SELECT 1) SELECT * FROM x;"));
    assertTrue(TssParser.isQuery("  -- c\n query t select 1"));
    assertEquals(false, TssParser.isQuery("SHOW TSS"));
  }

  @Test
  void versionQueryErrors() {
    assertEquals(
        "line 1:8: unexpected end of input — expected a name",
        assertThrows(TssSyntaxException.class, () -> TssParser.parseQuery("QUERY  ")).getMessage());
    assertEquals(
        "line 1:10: missing SQL — expected SQL over the version's states such as"
            + " SELECT * FROM app1.clicks",
        assertThrows(TssSyntaxException.class, () -> TssParser.parseQuery("QUERY t  ;"))
            .getMessage());
    assertEquals(
        "line 1:17: invalid time 'x' (not a recognised time) — expected "
            + TimeLiterals.ACCEPTED_FORMS,
        assertThrows(
                TssSyntaxException.class,
                () -> TssParser.parseQuery("QUERY t VERSION 'x' SELECT 1"))
            .getMessage());
  }

  @Test
  void astRecordsRejectInvalidNamesDirectly() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new DropTss("../etc"));
    assertEquals(
        "invalid TSS name '../etc': use letters, digits and '_' only, not starting with a digit",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new StateRef("a", "b/c"));
    assertThrows(IllegalArgumentException.class, () -> new StateRef("a", "x.y.z"));
  }
}
