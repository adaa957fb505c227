package io.arcon.portability.typescript;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.portability.jobservice.ArconJobServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pipelines written with the Beam TypeScript SDK (apache-beam from npm, {@code
 * src/test/typescript}) produce what Java computes from the same input files: a word count and a
 * keyed sum in 10 s event-time windows.
 *
 * <p>On the SDK's own DirectRunner, which checks the pipelines and this test's expectations without
 * a job server; and submitted to ArconRunner's job server with environment LOOPBACK, where the SDK
 * serves its workers from the node process and ArconRunner runs the rest.
 *
 * <p>Skipped when node or npm is missing (run {@code bin/setup-typescript-tests}), unless {@code
 * ARCON_TYPESCRIPT_TESTS=required} (CI), which fails then. Each script's output and log are in
 * {@code target/typescript/}.
 */
class TypeScriptSdkTest {
  private static final Path PROJECT_DIR = Path.of("src/test/typescript");
  private static final Path WORDS = PROJECT_DIR.resolve("fixtures/words.txt");
  private static final Path EVENTS = PROJECT_DIR.resolve("fixtures/events.csv");
  private static final Path OUT_DIR = Path.of("target/typescript").toAbsolutePath();
  private static final int WINDOW_SECONDS = 10;

  private static final Duration DIRECT_TIMEOUT = Duration.ofMinutes(3);
  // The SDK polls the job's state with a growing interval of up to 10 s.
  private static final Duration JOB_SERVER_TIMEOUT = Duration.ofMinutes(5);

  private static NodeProject project;

  @BeforeAll
  static void installSdk() throws Exception {
    project = NodeProject.prepare(PROJECT_DIR, OUT_DIR);
  }

  @Test
  void wordCountOnDirectRunner() throws Exception {
    Path output = OUT_DIR.resolve("wordcount-direct.tsv");
    project.runScript(
        "wordcount.js",
        List.of("--runner=direct", "--input=" + WORDS.toAbsolutePath(), "--output=" + output),
        "wordcount-direct",
        DIRECT_TIMEOUT);
    assertEquals(WordCounts.expectedFrom(WORDS), WordCounts.read(output));
  }

  @Test
  void windowedSumOnDirectRunner() throws Exception {
    Path output = OUT_DIR.resolve("windowed_sum-direct.tsv");
    project.runScript(
        "windowed_sum.js",
        windowedSumArgs("--runner=direct", output),
        "windowed_sum-direct",
        DIRECT_TIMEOUT);
    assertEquals(WindowedSums.expectedFrom(EVENTS, WINDOW_SECONDS), WindowedSums.read(output));
  }

  @Test
  void wordCountOnArconJobServer() throws Exception {
    Path output = OUT_DIR.resolve("wordcount-arcon.tsv");
    try (ArconJobServer server = ArconJobServer.start()) {
      project.runScript(
          "wordcount.js",
          List.of(
              "--job_endpoint=" + server.jobEndpoint(),
              "--input=" + WORDS.toAbsolutePath(),
              "--output=" + output),
          "wordcount-arcon",
          JOB_SERVER_TIMEOUT);
    }
    assertEquals(WordCounts.expectedFrom(WORDS), WordCounts.read(output));
  }

  @Test
  void windowedSumOnArconJobServer() throws Exception {
    Path output = OUT_DIR.resolve("windowed_sum-arcon.tsv");
    try (ArconJobServer server = ArconJobServer.start()) {
      project.runScript(
          "windowed_sum.js",
          windowedSumArgs("--job_endpoint=" + server.jobEndpoint(), output),
          "windowed_sum-arcon",
          JOB_SERVER_TIMEOUT);
    }
    assertEquals(WindowedSums.expectedFrom(EVENTS, WINDOW_SECONDS), WindowedSums.read(output));
  }

  private static List<String> windowedSumArgs(String runnerArg, Path output) {
    List<String> args = new ArrayList<>();
    args.add(runnerArg);
    args.add("--input=" + EVENTS.toAbsolutePath());
    args.add("--window_seconds=" + WINDOW_SECONDS);
    args.add("--output=" + output);
    return args;
  }
}
