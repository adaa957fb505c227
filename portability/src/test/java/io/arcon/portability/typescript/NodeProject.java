package io.arcon.portability.typescript;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The npm project of the TypeScript SDK pipelines ({@code src/test/typescript}): checks that node
 * and npm are there, installs the pinned packages with {@code npm ci} when they are missing or
 * older than {@code package-lock.json}, and runs its scripts with node.
 *
 * <p>Without node or npm the tests are skipped, unless {@code ARCON_TYPESCRIPT_TESTS=required}
 * (CI), which fails them instead.
 */
final class NodeProject {
  static final String REQUIRED_ENV = "ARCON_TYPESCRIPT_TESTS";

  private static final Duration NPM_CI_TIMEOUT = Duration.ofMinutes(10);
  private static final int LOG_LINES_IN_MESSAGES = 60;

  private final Path dir;
  private final Path logDir;

  private NodeProject(Path dir, Path logDir) {
    this.dir = dir;
    this.logDir = logDir;
  }

  /**
   * The project at {@code dir}, its packages installed; skips (or, when required, fails) the
   * calling tests when node or npm is missing or npm cannot install the packages.
   */
  static NodeProject prepare(Path dir, Path logDir) throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    NodeProject project = new NodeProject(dir.toAbsolutePath(), logDir.toAbsolutePath());
    for (String tool : List.of("node", "npm")) {
      if (!runs(tool, "--version")) {
        unavailable(
            tool
                + " is not on PATH: install Node.js 18 or later with npm, then run"
                + " bin/setup-typescript-tests.");
      }
    }
    if (!project.packagesInstalled()) {
      Path log = logDir.resolve("npm-ci.log");
      int exit =
          project.exec(
              List.of("npm", "ci", "--no-audit", "--no-fund"), log, NPM_CI_TIMEOUT, "npm ci");
      if (exit != 0 || !project.packagesInstalled()) {
        unavailable(
            "npm ci in "
                + project.dir
                + " failed (exit "
                + exit
                + "), so the Beam TypeScript SDK is not installed; run bin/setup-typescript-tests"
                + " to see why. Its output:\n"
                + tail(log));
      }
    }
    return project;
  }

  /** Skips the tests, or fails them when {@link #REQUIRED_ENV} is {@code required}. */
  private static void unavailable(String message) {
    if ("required".equals(System.getenv(REQUIRED_ENV))) {
      fail(message + " " + REQUIRED_ENV + "=required does not allow skipping these tests.");
    }
    Assumptions.abort(message);
  }

  /** apache-beam is installed, from the current package-lock.json. */
  private boolean packagesInstalled() throws IOException {
    Path installed = dir.resolve("node_modules/.package-lock.json");
    return Files.exists(dir.resolve("node_modules/apache-beam/package.json"))
        && Files.exists(installed)
        && Files.getLastModifiedTime(installed)
                .compareTo(Files.getLastModifiedTime(dir.resolve("package-lock.json")))
            >= 0;
  }

  /**
   * Runs {@code node script args} in the project folder, its output going to {@code
   * logDir/<logName>.log}; fails the test when it does not end within {@code timeout} (the process
   * is killed then) or ends with a non-zero exit code, with the end of the log in the message.
   */
  void runScript(String script, List<String> args, String logName, Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("node", script));
    command.addAll(args);
    Path log = logDir.resolve(logName + ".log");
    int exit = exec(command, log, timeout, String.join(" ", command));
    if (exit != 0) {
      fail(
          String.join(" ", command)
              + " exited with "
              + exit
              + " (1: the pipeline failed, 2: bad arguments); the end of "
              + log
              + ":\n"
              + tail(log));
    }
  }

  private int exec(List<String> command, Path log, Duration timeout, String what)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      fail(
          what
              + " did not end within "
              + timeout
              + " and was killed; the end of "
              + log
              + ":\n"
              + tail(log));
    }
    return process.exitValue();
  }

  private static boolean runs(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "(no output)";
    }
    // Not readAllLines: a log cut off mid-character must still be shown.
    List<String> lines =
        List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n"));
    return String.join(
        "\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_IN_MESSAGES), lines.size()));
  }
}
