package io.arcon.state.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lmdb in a plain {@code java -cp} JVM, as users start pipelines (Surefire's JVM has the flags, so
 * this runs a child JVM): without lmdbjava's flags the engine is refused with a message naming
 * them; with them it works.
 */
class LmdbJvmAccessTest {

  /** Opens an lmdb backend, writes and reads one row. */
  public static void main(String[] args) throws IOException {
    try (StateBackend backend =
        StateBackends.open(StateBackendConfig.of("lmdb", Path.of(args[0])))) {
      backend.table("t").put(new byte[] {1}, new byte[] {42});
      System.out.println("read " + backend.table("t").get(new byte[] {1})[0]);
    }
  }

  @Test
  void withoutTheFlagsTheEngineIsRefusedNamingThem(@TempDir Path dir) throws Exception {
    Result r = run(dir, List.of());
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains(LmdbStateBackend.JVM_FLAGS), r.output());
    assertTrue(r.output().contains("StateBackendException"), r.output());
  }

  @Test
  void withTheFlagsItWorks(@TempDir Path dir) throws Exception {
    Result r = run(dir, List.of(LmdbStateBackend.JVM_FLAGS.split(" ")));
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("read 42"), r.output());
  }

  private record Result(int exitCode, String output) {}

  private static Result run(Path dir, List<String> flags) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LmdbJvmAccessTest.class.getName());
    command.add(dir.resolve("env").toString());
    Path log = dir.resolve("child.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the child JVM did not end within 60 s");
    }
    return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
