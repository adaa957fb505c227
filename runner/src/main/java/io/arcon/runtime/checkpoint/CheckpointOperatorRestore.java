package io.arcon.runtime.checkpoint;

import io.arcon.runtime.operator.OperatorRestore;
import java.nio.file.Path;
import java.util.List;

/**
 * What one operator instance restores: the directories every previous instance of its transform
 * wrote in a completed epoch (all of them exist; an instance that saved nothing has an empty one).
 */
final class CheckpointOperatorRestore implements OperatorRestore {
  private final String transform;
  private final long epoch;
  private final List<Path> previousDirectories;
  private final int instance;
  private final int parallelism;

  CheckpointOperatorRestore(
      String transform, long epoch, List<Path> previousDirectories, int instance, int parallelism) {
    this.transform = transform;
    this.epoch = epoch;
    this.previousDirectories = List.copyOf(previousDirectories);
    this.instance = instance;
    this.parallelism = parallelism;
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public int previousParallelism() {
    return previousDirectories.size();
  }

  @Override
  public Path directoryOf(int previousInstance) {
    if (previousInstance < 0 || previousInstance >= previousDirectories.size()) {
      throw new IllegalArgumentException(
          "Transform '"
              + transform
              + "' had "
              + previousDirectories.size()
              + " instances in epoch "
              + epoch
              + "; there is no previous instance "
              + previousInstance);
    }
    return previousDirectories.get(previousInstance);
  }

  @Override
  public boolean sameParallelism() {
    return parallelism == previousDirectories.size();
  }

  @Override
  public Path ownDirectory() {
    if (!sameParallelism()) {
      throw new IllegalStateException(
          "Transform '"
              + transform
              + "' ran with parallelism "
              + previousDirectories.size()
              + " in epoch "
              + epoch
              + " and now runs with "
              + parallelism
              + ": read every previous instance with directoryOf() and keep the key groups this"
              + " instance owns");
    }
    return previousDirectories.get(instance);
  }

  @Override
  public String toString() {
    return "restore of '"
        + transform
        + "' instance "
        + instance
        + "/"
        + parallelism
        + " from epoch "
        + epoch
        + " (previous parallelism "
        + previousDirectories.size()
        + ")";
  }
}
