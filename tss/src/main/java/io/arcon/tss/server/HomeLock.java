package io.arcon.tss.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One control plane per home directory, across processes: an OS file lock on {@code
 * <home>/control-plane.lock}, held while the control plane runs. The file names the holder's
 * endpoint and process, so a second control plane (e.g. a pipeline starting an embedded one with
 * the same home but another port) is refused with a message saying where the first one listens. The
 * OS releases the lock when the process dies, so a crash leaves nothing to clean up.
 */
final class HomeLock implements AutoCloseable {
  static final String FILE_NAME = "control-plane.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private HomeLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code home} for a control plane listening on {@code endpoint}.
   *
   * @throws HomeInUseException if another control plane holds it
   * @throws UncheckedIOException if the home directory is unusable
   */
  static HomeLock acquire(Path home, String endpoint) {
    Path file = home.resolve(FILE_NAME);
    FileChannel channel = null;
    try {
      Files.createDirectories(home);
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by a control plane in this JVM
      }
      if (lock == null) {
        String holder = readHolder(channel);
        channel.close();
        throw new HomeInUseException(
            "the TSS home "
                + home
                + " is in use by another control plane"
                + (holder.isEmpty() ? " (starting)" : " (" + holder + ")")
                + "; connect to that one, stop it, or give this one another home directory",
            holder.isEmpty() ? "" : holder.split(" ", 2)[0]);
      }
      HomeLock homeLock = new HomeLock(channel, lock);
      homeLock.writeHolder(endpoint);
      return homeLock;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException(
          "cannot lock the TSS home " + home + " (" + file + "): " + e.getMessage(), e);
    }
  }

  /**
   * Records where this control plane listens, once it knows its port (with port 0, after binding).
   */
  void recordEndpoint(String endpoint) {
    try {
      writeHolder(endpoint);
    } catch (IOException e) {
      // Only the message of a refused second control plane would be less precise.
    }
  }

  private void writeHolder(String endpoint) throws IOException {
    channel.truncate(0);
    ByteBuffer content =
        ByteBuffer.wrap(
            (endpoint + " pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8));
    long position = 0;
    while (content.hasRemaining()) {
      position += channel.write(content, position);
    }
    channel.force(true);
  }

  private static String readHolder(FileChannel channel) throws IOException {
    long size = Math.min(channel.size(), 4096);
    ByteBuffer buffer = ByteBuffer.allocate((int) size);
    while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
      // read until full or end of file
    }
    return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Already failing with the cause that matters.
      }
    }
  }

  /** Releases the lock; the file stays (deleting it would race with the next control plane). */
  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // Closing the channel below releases it as well.
    } finally {
      closeQuietly(channel);
    }
  }
}
