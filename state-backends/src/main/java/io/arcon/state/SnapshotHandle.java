package io.arcon.state;

import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where a backend snapshot lives and what it is. The directory holds the engine's files plus a
 * manifest (file names, sizes, checksums) written last; a snapshot without a valid manifest is
 * incomplete and is refused on restore.
 *
 * <p>Java-serializable although {@link Path} is not: it travels as its path string (see {@link
 * #writeReplace}), e.g. inside checkpoint metadata.
 */
public record SnapshotHandle(String engine, long epoch, Path directory) implements Serializable {

  @Serial
  private Object writeReplace() {
    return new Serialized(engine, epoch, directory == null ? null : directory.toString());
  }

  /** The serialized form: the directory as a string. */
  private record Serialized(String engine, long epoch, String directory) implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    @Serial
    private Object readResolve() {
      return new SnapshotHandle(engine, epoch, directory == null ? null : Path.of(directory));
    }
  }
}
