package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
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

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
