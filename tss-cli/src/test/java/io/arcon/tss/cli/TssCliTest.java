package io.arcon.tss.cli;

import static io.arcon.tss.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.cli.CliTestSupport.Run;
import io.arcon.tss.cli.CliTestSupport.SyntheticApp;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI in-process against a real control plane over gRPC. */
class TssCliTest {
  @TempDir static Path home;
  static ControlPlaneServer server;
  static SyntheticApp app;
  static String endpoint;

  @BeforeAll
  static void startControlPlaneWithOneApp() throws Exception {
    server = ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
    endpoint = "127.0.0.1:" + server.port();
    app = new SyntheticApp(server.port(), "app1", "clicks", "steps");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
    server.close();
  }

  private static Run tss(String statements) {
    return run("--endpoint", endpoint, "-e", statements);
  }

  @Test
  void showAndDescribeApps() {
    Run r = tss("SHOW APPS; DESCRIBE APP app1");
    assertEquals(0, r.exitCode(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().contains("app1"), r.out());
    assertTrue(r.out().contains("clicks") && r.out().contains("steps"), r.out());
    // A table has a header rule and a row count.
    assertTrue(r.out().contains("-+-") && r.out().contains("row"), r.out());
  }

  @Test
  void createShowDescribeAndDropTss() {
    Run created =
        tss("CREATE TSS cli_t AS EXTRACT app1.clicks AT '2030-01-01 00:00' FOR EACH 1 HOUR;");
    assertEquals(0, created.exitCode(), created.err());
    Run shown = tss("show tss;");
    assertEquals(0, shown.exitCode(), shown.err());
    assertTrue(shown.out().contains("cli_t"), shown.out());
    Run described = tss("DESCRIBE TSS cli_t;");
    assertEquals(0, described.exitCode(), described.err());
    assertTrue(described.out().contains("app1.clicks"), described.out());
    Run dropped = tss("DROP TSS cli_t;");
    assertEquals(0, dropped.exitCode(), dropped.err());
    assertTrue(!tss("SHOW TSS;").out().contains("cli_t"));
  }

  @Test
  void syntaxErrorIsPositionedInTheWholeScriptAndExitsWith2() {
    Run r = tss("SHOW APPS;\n  SHOW FOO;");
    assertEquals(2, r.exitCode());
    assertEquals(
        "error: line 2:8: unexpected 'FOO' — expected APPS or TSS\n"
            + "    SHOW FOO;\n"
            + "         ^\n",
        r.err());
    // The first statement ran before the second failed.
    assertTrue(r.out().contains("app1"), r.out());
  }

  @Test
  void refusedStatementExitsWith1() {
    Run r = tss("DESCRIBE APP no_such_app;");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("error: ") && r.err().contains("no_such_app"), r.err());
    Run unknownState = tss("CREATE TSS u AS EXTRACT app1.nope AT '2030-01-01 00:00';");
    assertEquals(1, unknownState.exitCode());
    assertTrue(unknownState.err().contains("nope"), unknownState.err());
  }

  @Test
  void unreachableControlPlaneExitsWith1() throws Exception {
    int freePort;
    try (var socket = new java.net.ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    Run r = run("--endpoint", "127.0.0.1:" + freePort, "-e", "SHOW APPS;");
    assertEquals(1, r.exitCode());
    assertTrue(r.err().startsWith("error: cannot reach the TSS control plane"), r.err());
  }

  /** An endpoint that is an HTTP/1 server (a web UI) was reported as a bare "http2 exception". */
  @Test
  void anEndpointThatIsNotAControlPlaneIsNamedSo() throws Exception {
    com.sun.net.httpserver.HttpServer web =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    web.start();
    try {
      Run r = run("--endpoint", "127.0.0.1:" + web.getAddress().getPort(), "-e", "SHOW APPS;");
      assertEquals(1, r.exitCode());
      assertTrue(
          r.err()
              .startsWith(
                  "error: the endpoint 127.0.0.1:"
                      + web.getAddress().getPort()
                      + " answered, but not as a TSS control plane"),
          r.err());
    } finally {
      web.stop(0);
    }
  }

  @Test
  void badEndpointAndEmptyScriptAreUsageErrors() {
    Run r = run("--endpoint", "nohost", "-e", "SHOW APPS;");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().startsWith("Invalid value for option '--endpoint': endpoint 'nohost'"));
    Run empty = run("--endpoint", endpoint, "-e", " ; -- nothing");
    assertEquals(2, empty.exitCode());
    assertEquals("error: -e has no statement; e.g. tss -e \"SHOW APPS;\"\n", empty.err());
  }

  @Test
  void queryReadsACommittedVersionFromTheControlPlanesLake() throws Exception {
    Path lake = home.resolve("lake");
    Instant version = Instant.parse("2026-12-02T13:00:00Z");
    Instant updated = Instant.parse("2026-12-02T12:59:59Z");
    VersionQueryRunnerTest.writeState(
        lake,
        "q",
        version,
        "app1",
        "clicks",
        List.of(
            VersionQueryRunnerTest.row("alice", 3, updated),
            VersionQueryRunnerTest.row("bob", 4, updated)));
    VersionQueryRunnerTest.commit(lake, "q", version);
    Run r = tss("QUERY q SELECT key, value FROM app1.clicks ORDER BY value DESC;");
    assertEquals(0, r.exitCode(), r.err());
    assertEquals(
        "key   | value\n"
            + "------+------\n"
            + "bob   | 4\n"
            + "alice | 3\n"
            + "(2 rows)\n"
            + "version 2026-12-02T13:00:00Z of q\n",
        r.out());
    Run notCommitted = tss("QUERY q VERSION '2026-12-02 13:05' SELECT 1;");
    assertEquals(1, notCommitted.exitCode());
    assertTrue(notCommitted.err().contains("is not committed"), notCommitted.err());
    Run badQuery = tss("QUERY q VERSION 'soon' SELECT 1;");
    assertEquals(2, badQuery.exitCode());
    assertTrue(badQuery.err().startsWith("error: line 1:17: invalid time 'soon'"), badQuery.err());
    assertTrue(Files.exists(lake.resolve("q/version=" + version + "/_COMMITTED")));
  }
}
