package io.arcon.runner.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Puts a test's temporary directory (checkpoints, state, output) in memory (/dev/shm) when the
 * machine has it. Every epoch fsyncs its files and the persistent engines' snapshots; on this CI's
 * disk that makes an epoch take over a second, too slow for the many epochs the fault tests need. A
 * kill -9 loses nothing of a tmpfs (only the machine's crash would), so the tests lose nothing.
 */
public final class MemoryTempDirs implements TempDirFactory {
  private static final Path SHM = Path.of("/dev/shm");
  private static final long MIN_FREE_BYTES = 2L << 30;

  @Override
  public Path createTempDirectory(
      AnnotatedElementContext elementContext, ExtensionContext extensionContext)
      throws IOException {
    // A container's /dev/shm may be tiny (Docker's default is 64 MB): use it only with room.
    if (Files.isDirectory(SHM)
        && Files.isWritable(SHM)
        && Files.getFileStore(SHM).getUsableSpace() > MIN_FREE_BYTES) {
      return Files.createTempDirectory(SHM, "arcon-faults-");
    }
    return Files.createTempDirectory("arcon-faults-");
  }
}
