package io.arcon.runner.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's JVM ends when their {@code main} returns: nothing the runner starts for a job (the web
 * UI's HTTP server, the embedded TSS control plane, actor systems, engines) keeps it alive. Runs
 * {@link FinishingPipeline} in a plain {@code java -cp} process, as a user starts it.
 */
class JvmExitTest {
  @Test
  void jvmEndsAfterMainReturns(@TempDir Path tmp) throws IOException, InterruptedException {
    Path log = tmp.resolve("pipeline.log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m",
            "-Djava.io.tmpdir=" + tmp,
            "-cp",
            System.getProperty("java.class.path"),
            FinishingPipeline.class.getName(),
            "--parallelism=2",
            "--webUi=on",
            "--tss=on",
            "--tssEndpoint=127.0.0.1:" + freePort(),
            "--tssHome=" + tmp.resolve("tss"));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(3, TimeUnit.MINUTES);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    if (!ended) {
      String threads = threadDump(process.pid());
      process.destroyForcibly();
      throw new AssertionError(
          "the JVM did not end within 3 minutes of starting; its output:\n"
              + output
              + "\nits non-daemon threads:\n"
              + threads);
    }
    assertEquals(0, process.exitValue(), "the pipeline failed:\n" + output);
    assertTrue(output.contains(FinishingPipeline.DONE + " DONE"), "no completion line:\n" + output);
    assertTrue(output.contains("Web UI of "), "the web UI did not start:\n" + output);
    assertTrue(
        output.contains("started an embedded control plane"),
        "the embedded TSS control plane did not start:\n" + output);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The names of the process's non-daemon threads, from {@code jcmd Thread.print}. */
  private static String threadDump(long pid) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print").start();
    String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    dump.waitFor(30, TimeUnit.SECONDS);
    StringBuilder names = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("\"") && !line.contains(" daemon ")) {
        names.append(line, 0, Math.min(line.length(), 120)).append('\n');
      }
    }
    return names.toString();
  }
}
