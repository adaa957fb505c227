package io.arcon.tss.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Crash-safe file replacement for the control plane's home directory: a reader (or the control
 * plane after a crash) sees either the old content or the new one, never a torn file.
 */
final class AtomicFiles {
  private AtomicFiles() {}

  static void write(Path target, byte[] content) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        // The data must be durable before the rename makes it visible under the real name.
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
    fsyncDirectory(dir);
  }

  /** Makes a rename or delete in {@code dir} durable. */
  static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems do not allow opening a directory; the rename is still atomic there.
      if (!System.getProperty("os.name", "").toLowerCase().contains("win")) {
        throw e;
      }
    }
  }
}
