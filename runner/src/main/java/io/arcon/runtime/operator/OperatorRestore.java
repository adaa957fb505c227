package io.arcon.runtime.operator;

import java.nio.file.Path;

/**
 * The checkpoint an operator instance resumes from: the snapshot directories its transform's
 * instances wrote in a completed epoch. With an unchanged parallelism an instance reads {@link
 * #ownDirectory()}; after a parallelism change a keyed operator reads every previous instance and
 * keeps the key groups it now owns, and a source redistributes the previous instances' positions.
 */
public interface OperatorRestore {
  /** The epoch restored. */
  long epoch();

  /** The parallelism of the transform when the checkpoint was taken. */
  int previousParallelism();

  /**
   * The directory previous instance {@code previousInstance} wrote ({@code 0 <= previousInstance <
   * previousParallelism()}); it exists, possibly empty when that operator had nothing to save.
   */
  Path directoryOf(int previousInstance);

  /** True when the parallelism did not change, so this instance restores its own directory. */
  boolean sameParallelism();

  /**
   * This instance's own previous directory; only with {@link #sameParallelism()}.
   *
   * @throws IllegalStateException after a parallelism change
   */
  Path ownDirectory();
}
