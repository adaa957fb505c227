package io.arcon.runner.state;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A plain JVM that creates a temporary state root in {@code args[0]}, writes a file into it as an
 * engine would, prints the root and {@code READY}, and waits to be killed.
 */
public final class TemporaryStateRootChild {
  private TemporaryStateRootChild() {}

  public static void main(String[] args) throws Exception {
    TemporaryStateRoot root = TemporaryStateRoot.createIn(Path.of(args[0]));
    Path engine = Files.createDirectories(root.path().resolve("v1-op0-i0"));
    Files.write(engine.resolve("000001.sst"), new byte[64 * 1024]);
    System.out.println(root.path());
    System.out.println("READY");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
