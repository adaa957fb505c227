package io.arcon.portability.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService.ArtifactDestination;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService.ArtifactDestinationProvider;

/**
 * The job server's staging root: one directory per staging session (one per prepared job), into
 * which Beam's {@link org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService} writes
 * the artifacts a client stages.
 *
 * <p>Artifact names come from the client (Beam derives them from the artifact's path or staged
 * name), so every name is reduced to one safe file name before it touches the file system: a name
 * like {@code ../../etc/passwd} lands as a plain file inside the session's directory, never outside
 * it.
 */
public final class StagingRoot implements ArtifactDestinationProvider {

  /** Longest file name written; file systems commonly allow 255 bytes. */
  private static final int MAX_NAME_LENGTH = 200;

  private final Path root;
  private final Map<String, Path> sessionDirectories = new ConcurrentHashMap<>();

  /**
   * @param root directory that holds the sessions' directories; created if missing
   */
  public StagingRoot(Path root) {
    this.root = root.toAbsolutePath().normalize();
    try {
      Files.createDirectories(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create the artifact staging directory "
              + this.root
              + ": "
              + e.getMessage()
              + "; pass a writable --staging-dir",
          e);
    }
  }

  public Path root() {
    return root;
  }

  /**
   * Creates the directory of a new staging session.
   *
   * @param stagingToken the session's token; it names the directory, so it must be a plain file
   *     name (the job service makes it from a UUID)
   */
  public Path openSession(String stagingToken) throws IOException {
    if (!stagingToken.equals(safeFileName(stagingToken))) {
      throw new IllegalArgumentException(
          "staging token '" + stagingToken + "' is not a plain file name");
    }
    Path directory = Files.createDirectories(root.resolve(stagingToken));
    sessionDirectories.put(stagingToken, directory);
    return directory;
  }

  /** The session's directory, or null when the session is unknown or already removed. */
  public Path sessionDirectory(String stagingToken) {
    return sessionDirectories.get(stagingToken);
  }

  @Override
  public ArtifactDestination getDestination(String stagingToken, String name) throws IOException {
    Path directory = sessionDirectories.get(stagingToken);
    if (directory == null) {
      throw new IOException("no open staging session for token " + stagingToken);
    }
    Path file = directory.resolve(safeFileName(name)).normalize();
    if (!directory.equals(file.getParent())) {
      // safeFileName leaves no separators or dot names, so this only guards against a later change.
      throw new IOException("artifact name '" + name + "' leaves the session's directory");
    }
    // CREATE_NEW: an artifact never overwrites another one (Beam's names start with a unique id).
    OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW);
    return ArtifactDestination.fromFile(file.toString(), out);
  }

  @Override
  public void removeStagedArtifacts(String stagingToken) throws IOException {
    Path directory = sessionDirectories.remove(stagingToken);
    if (directory != null) {
      deleteRecursively(directory);
    }
  }

  /** Whether {@code path} is a file inside some session's directory (for artifact retrieval). */
  public boolean holds(Path path) {
    Path normalized = path.toAbsolutePath().normalize();
    return normalized.startsWith(root) && !normalized.equals(root);
  }

  /**
   * One file name that keeps the readable part of {@code name}: characters other than letters,
   * digits, '.', '-' and '_' become '_', and leading dots are dropped, so the result is never a
   * path, "." or "..".
   */
  static String safeFileName(String name) {
    StringBuilder safe = new StringBuilder(Math.min(name.length(), MAX_NAME_LENGTH));
    for (int i = 0; i < name.length() && safe.length() < MAX_NAME_LENGTH; i++) {
      char c = name.charAt(i);
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '-'
              || c == '_';
      safe.append(plain ? c : '_');
    }
    int start = 0;
    while (start < safe.length() && safe.charAt(start) == '.') {
      start++;
    }
    String result = safe.substring(start);
    return result.isEmpty() ? "artifact" : result;
  }

  /** Deletes {@code directory} and everything in it; a missing directory is no error. */
  public static void deleteRecursively(Path directory) throws IOException {
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              if (e != null) {
                throw e;
              }
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (NoSuchFileException e) {
      // Already gone: nothing to remove.
    }
  }
}
