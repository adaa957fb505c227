package io.arcon.state.snapshot;

import io.arcon.state.StateBackendException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/** File-tree chores shared by the engines' snapshot, restore and dispose paths. */
public final class FileTrees {
  private FileTrees() {}

  /**
   * Makes sure {@code directory} exists and is empty, as {@link
   * io.arcon.state.StateBackend#snapshot} requires, so a snapshot never mixes with older files.
   */
  public static void requireEmptyOrAbsent(Path directory) {
    try {
      if (Files.exists(directory)) {
        if (!Files.isDirectory(directory)) {
          throw new IllegalArgumentException(
              "Snapshot target " + directory + " is a file; give a new or empty directory");
        }
        try (Stream<Path> children = Files.list(directory)) {
          if (children.findAny().isPresent()) {
            throw new IllegalArgumentException(
                "Snapshot target "
                    + directory
                    + " is not empty; give each snapshot a new or empty directory");
          }
        }
      }
    } catch (IOException e) {
      throw new StateBackendException("Cannot inspect snapshot target " + directory + ": " + e, e);
    }
  }

  /** Creates {@code directory} and its parents. */
  public static void createDirectories(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new StateBackendException("Cannot create directory " + directory + ": " + e, e);
    }
  }

  /** Deletes {@code root} and everything under it; absent is fine. */
  public static void deleteRecursively(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc)
                throws IOException {
              if (exc != null && !(exc instanceof NoSuchFileException)) {
                throw exc;
              }
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new StateBackendException("Cannot delete " + root + ": " + e, e);
    }
  }

  /** Deletes {@code directory} if it exists and is empty (e.g. a backend's root after dispose). */
  public static void deleteIfEmpty(Path directory) {
    try (Stream<Path> children = Files.list(directory)) {
      if (children.findAny().isEmpty()) {
        Files.deleteIfExists(directory);
      }
    } catch (NoSuchFileException e) {
      // Already gone: nothing to do.
    } catch (IOException e) {
      throw new StateBackendException("Cannot delete " + directory + ": " + e, e);
    }
  }

  /** Copies every file the manifest lists from {@code snapshot} into {@code target}. */
  public static void copySnapshotFiles(SnapshotManifest manifest, Path snapshot, Path target) {
    try {
      Files.createDirectories(target);
      for (SnapshotManifest.Entry entry : manifest.files()) {
        Path to = target.resolve(entry.path());
        Files.createDirectories(to.getParent());
        Files.copy(snapshot.resolve(entry.path()), to, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new StateBackendException(
          "Cannot copy snapshot " + snapshot + " into " + target + ": " + e, e);
    }
  }

  /** Fsyncs a directory so that renames and new entries in it are durable. */
  public static void fsyncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open directories; the data files are already fsynced.
      if (!(e instanceof java.nio.file.AccessDeniedException)) {
        throw e;
      }
    }
  }
}
