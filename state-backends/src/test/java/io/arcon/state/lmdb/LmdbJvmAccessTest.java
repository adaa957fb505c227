package io.arcon.state.lmdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
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
 * this runs a child JVM with none of them): the backend must open, write, read and scan there.
 */
class LmdbJvmAccessTest {

  /** Opens an lmdb backend, writes and reads one row. */
  public static void main(String[] args) throws IOException {
    try (StateBackend backend =
        StateBackends.open(StateBackendConfig.of("lmdb", Path.of(args[0])))) {
      backend.table("t").put(new byte[] {1}, new byte[] {42});
      System.out.println("read " + backend.table("t").get(new byte[] {1})[0]);
      StateTable table = backend.table("scan");
      table.put(new byte[] {(byte) 0x80}, new byte[] {3});
      table.put(new byte[] {2}, new byte[] {2});
      table.put(new byte[] {1}, new byte[] {1});
      List<Byte> order = new ArrayList<>();
      try (CloseableIterator<StateEntry> rows = table.iterator()) {
        rows.forEachRemaining(row -> order.add(row.value()[0]));
      }
      // Keys compare unsigned: 0x80 sorts after 0x02.
      if (order.equals(List.of((byte) 1, (byte) 2, (byte) 3))) {
        System.out.println("scanned 3 rows in order");
      } else {
        System.out.println("scan order wrong: " + order);
      }
    }
  }

  @Test
  void worksInAPlainJvmWithoutAnyFlag(@TempDir Path dir) throws Exception {
    Result r = run(dir, List.of());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("read 42"), r.output());
    assertTrue(r.output().contains("scanned 3 rows in order"), r.output());
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
