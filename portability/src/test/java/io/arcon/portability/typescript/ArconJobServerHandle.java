package io.arcon.portability.typescript;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Assumptions;

/**
 * ArconRunner's job server, started in this JVM on ephemeral ports for the TypeScript SDK to submit
 * to.
 *
 * <p>The job server ({@code io.arcon.portability.jobservice.ArconJobServer}) is written beside this
 * test and not merged yet, so it is found by name: while it is missing, the tests that need it are
 * skipped. Expected API: {@code static ArconJobServer start()} (gRPC servers on ephemeral ports,
 * the executor behind them), {@code String jobEndpoint()} ({@code "localhost:PORT"}) and {@code
 * void close()}. Once it is merged, this class becomes direct calls.
 */
final class ArconJobServerHandle implements AutoCloseable {
  static final String SERVER_CLASS = "io.arcon.portability.jobservice.ArconJobServer";

  private final Object server;
  private final String jobEndpoint;

  private ArconJobServerHandle(Object server, String jobEndpoint) {
    this.server = server;
    this.jobEndpoint = jobEndpoint;
  }

  /** Starts the job server; skips the calling test while its class does not exist. */
  static ArconJobServerHandle start() throws Exception {
    Class<?> serverClass;
    try {
      serverClass = Class.forName(SERVER_CLASS);
    } catch (ClassNotFoundException e) {
      Assumptions.abort(
          SERVER_CLASS + " is not built yet: the TypeScript SDK runs only on its DirectRunner.");
      throw new AssertionError("unreachable");
    }
    Method start = method(serverClass, "start");
    Object server = unwrap(() -> start.invoke(null));
    Object endpoint = unwrap(() -> method(serverClass, "jobEndpoint").invoke(server));
    return new ArconJobServerHandle(server, (String) endpoint);
  }

  /** Where the job server's JobService listens, as {@code host:port}. */
  String jobEndpoint() {
    return jobEndpoint;
  }

  @Override
  public void close() throws Exception {
    unwrap(() -> method(server.getClass(), "close").invoke(server));
  }

  private static Method method(Class<?> type, String name) {
    try {
      return type.getMethod(name);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(
          SERVER_CLASS
              + " has no public "
              + name
              + "() method: this test expects static start(), jobEndpoint() and close()."
              + " Adapt ArconJobServerHandle to the server's API.",
          e);
    }
  }

  private interface Call {
    Object call() throws Exception;
  }

  /** The job server's own exception rather than reflection's wrapper. */
  private static Object unwrap(Call call) throws Exception {
    try {
      return call.call();
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
