package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keyed state of about 600 MB in a JVM limited to {@code -Xmx256m} completes, with every byte read
 * back correctly, on the persistent engines. The pipeline runs in a forked JVM so the heap limit is
 * real and independent of the test JVM's.
 */
class LargerThanHeapStateTest {
  private static final int HEAP_MB = 256;
  private static final long KEYS = 300_000;
  private static final int PAYLOAD_BYTES = 1024;

  @ParameterizedTest
  @ValueSource(strings = {"rocksdb", "lmdb"})
  void stateOfTwiceTheHeapCompletes(String engine, @TempDir Path tmp)
      throws IOException, InterruptedException {
    Path log = tmp.resolve("pipeline.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + HEAP_MB + "m");
    // No module flags: the pipeline runs as a user starts it (lmdb needs none).
    command.add("-Djava.io.tmpdir=" + tmp);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            LargeStatePipeline.class.getName(),
            engine,
            Long.toString(KEYS),
            Integer.toString(PAYLOAD_BYTES)));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean finished = process.waitFor(15, TimeUnit.MINUTES);
    if (!finished) {
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertTrue(finished, "the pipeline did not finish within 15 minutes:\n" + output);
    assertEquals(0, process.exitValue(), "the pipeline failed:\n" + output);
    assertTrue(
        output.contains(engine + ": " + KEYS + " keys, 585 MB of state with -Xmx"),
        "no completion line:\n" + output);
  }
}
