package io.arcon.state;

import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where a backend snapshot lives and what it is. The directory holds the engine's files plus a
 * manifest (file names, sizes, checksums) written last; a snapshot without a valid manifest is
 * incomplete and is refused on restore.
 */
public record SnapshotHandle(String engine, long epoch, Path directory) implements Serializable {}
