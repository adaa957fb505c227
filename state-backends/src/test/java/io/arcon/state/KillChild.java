package io.arcon.state;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child JVM for the kill test: writes, flushes, writes more, then dies with {@link Runtime#halt} so
 * no close, finalizer or shutdown hook runs, as when a worker process is killed.
 */
public final class KillChild {
  public static final int FLUSHED = 2_000;
  public static final int UNFLUSHED = 500;

  public static void main(String[] args) throws Exception {
    String engine = args[0];
    Path dir = Path.of(args[1]);
    StateBackend backend = StateBackends.open(StateBackendConfig.of(engine, dir));
    StateTable values = backend.table("values");
    StateTable lists = backend.table("lists");
    for (int i = 0; i < FLUSHED; i++) {
      values.put(key("flushed", i), ("v" + i).getBytes(StandardCharsets.UTF_8));
      lists.append(key("bag", i % 10), ("e" + i).getBytes(StandardCharsets.UTF_8));
    }
    values.delete(key("flushed", 0));
    backend.flush();
    for (int i = 0; i < UNFLUSHED; i++) {
      values.put(key("unflushed", i), ("u" + i).getBytes(StandardCharsets.UTF_8));
    }
    System.out.println("READY");
    System.out.flush();
    Runtime.getRuntime().halt(137);
  }

  public static byte[] key(String prefix, int i) {
    return String.format("%s-%06d", prefix, i).getBytes(StandardCharsets.UTF_8);
  }
}
