package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

final class TestSupport {
  /** Generous: the machine is shared; this bounds a hang, it does not measure speed. */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private TestSupport() {}

  static void await(String what, BooleanSupplier condition) {
    await(what, condition, () -> "");
  }

  static void await(String what, BooleanSupplier condition, Supplier<String> state) {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("gave up waiting for " + what + "; state: " + state.get());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for " + what);
      }
    }
  }

  /** Something a test runs that may throw. */
  interface Action {
    void run() throws Exception;
  }

  /**
   * Runs {@code action} with System.err captured (where slf4j-simple logs) and returns what was
   * written; it is also passed on to the real System.err.
   */
  static String captureStderr(Action action) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    original.print(text);
    return text;
  }

  /** The lines of {@code log} that contain {@code text}. */
  static List<String> linesWith(String log, String text) {
    return log.lines().filter(l -> l.contains(text)).toList();
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
