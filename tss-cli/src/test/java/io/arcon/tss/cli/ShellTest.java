package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.cli.CliTestSupport.SyntheticApp;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser.ParseContext;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interactive shell and its completion, on a scripted terminal and a real control plane. */
class ShellTest {
  @TempDir static Path home;
  static ControlPlaneServer server;
  static SyntheticApp app;
  static TssClient client;

  @BeforeAll
  static void start() throws Exception {
    server = ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
    app = new SyntheticApp(server.port(), "shop", "orders", "Count.total");
    client = TssClient.connect("127.0.0.1", server.port(), null);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    app.close();
    server.close();
  }

  private static String runShell(String typed, Path history) throws Exception {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (Terminal terminal =
        new DumbTerminal(
            "test",
            "dumb",
            new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)),
            output,
            StandardCharsets.UTF_8)) {
      int code =
          new Shell(
                  terminal,
                  new StatementExecutor(client, null),
                  new CatalogCache(client),
                  history,
                  "test")
              .run();
      assertEquals(0, code);
    }
    return output.toString(StandardCharsets.UTF_8);
  }

  @Test
  void multiLineStatementsRunAndAreOneHistoryEntry() throws Exception {
    Path history = home.resolve("history");
    String out =
        runShell(
            "SHOW\n  APPS\n;\nDESCRIBE APP shop; SHOW FOO;\nhelp\nCREATE TSS s AS EXTRACT\n"
                + " shop.orders AT '2030-01-01 00:00';\nexit\nSHOW TSS;\n",
            history);
    assertTrue(out.contains("shop"), out);
    assertTrue(out.contains("Count.total"), out);
    assertTrue(out.contains("error: line 1:25: unexpected 'FOO' — expected APPS or TSS"), out);
    assertTrue(out.contains("QUERY name [VERSION"), out);
    // Nothing after exit runs: the created TSS exists, but SHOW TSS was never executed.
    assertTrue(client.showTss().rows().stream().anyMatch(r -> r.get(0).equals("s")));
    List<String> entries =
        Files.readAllLines(history).stream().map(l -> l.substring(l.indexOf(':') + 1)).toList();
    assertTrue(entries.contains("SHOW\\n  APPS\\n;"), entries.toString());
    assertTrue(entries.contains("DESCRIBE APP shop; SHOW FOO;"), entries.toString());
  }

  @Test
  void endOfInputEndsTheShell() throws Exception {
    String out = runShell("SHOW APPS;\n", home.resolve("history2"));
    assertTrue(out.contains("shop"), out);
  }

  private static List<String> complete(String line) throws Exception {
    try (Terminal terminal =
        new DumbTerminal(
            "test",
            "dumb",
            new ByteArrayInputStream(new byte[0]),
            new ByteArrayOutputStream(),
            StandardCharsets.UTF_8)) {
      LineReader reader = LineReaderBuilder.builder().terminal(terminal).build();
      ParsedLine parsed =
          new StatementLineParser().parse(line, line.length(), ParseContext.COMPLETE);
      List<Candidate> candidates = new ArrayList<>();
      new TssCompleter(new CatalogCache(client)).complete(reader, parsed, candidates);
      return candidates.stream().map(Candidate::value).toList();
    }
  }

  @Test
  void completesKeywordsAndControlPlaneNames() throws Exception {
    List<String> first = complete("");
    assertTrue(first.containsAll(List.of("SHOW", "CREATE", "DESCRIBE", "DROP", "QUERY", "exit")));
    assertEquals(List.of("shop"), complete("DESCRIBE APP sh"));
    assertEquals(List.of("shop.orders", "shop.Count.total"), complete("CREATE TSS x AS EXTRACT "));
    assertTrue(
        complete("CREATE TSS x AS EXTRACT shop.orders,").containsAll(List.of("shop.orders")));
    assertTrue(complete("create tss x as extract shop.orders ").contains("AT"));
  }

  @Test
  void statementsContinueUntilSemicolon() {
    assertTrue(StatementLineParser.needsMore("SHOW APPS"));
    assertTrue(StatementLineParser.needsMore("CREATE TSS t AS EXTRACT a.s AT ';"));
    assertEquals(false, StatementLineParser.needsMore("SHOW APPS; -- done"));
    assertEquals(false, StatementLineParser.needsMore("  "));
    assertEquals(false, StatementLineParser.needsMore("quit"));
    assertEquals(false, StatementLineParser.needsMore("EXIT;"));
  }
}
