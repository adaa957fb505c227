package io.arcon.runner.operators;

import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.Output;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The context a node gives one operator instance, for driving an operator directly in a test:
 * instance 0 of 1 unless told otherwise, a clock that moves only when set, and every emitted
 * element collected in {@link #emitted}. {@link #restoringFrom} and {@link #withCheckpointing} set
 * up a resumed or a checkpointing instance; {@link Snapshot} is the snapshot a node hands to {@link
 * io.arcon.runtime.operator.Operator#snapshotState}.
 */
final class TestOperatorContext implements OperatorContext {
  /** What the operator emitted, on any output, in order. */
  final List<Object> emitted = new ArrayList<>();

  private final Path stateDirectory;
  private Function<Object, Object> recordAs = Function.identity();
  private final Output output = (index, element) -> emitted.add(recordAs.apply(element));
  private int instanceIndex;
  private int parallelism = 1;
  private boolean checkpointing;
  private OperatorRestore restore;
  private long processingTime;

  /** {@code stateDirectory} may be null for operators without persistent state. */
  TestOperatorContext(Path stateDirectory) {
    this.stateDirectory = stateDirectory;
  }

  /** This context as instance {@code index} of {@code parallelism}. */
  TestOperatorContext asInstance(int index, int parallelism) {
    if (index < 0 || index >= parallelism) {
      throw new IllegalArgumentException("instance " + index + " of " + parallelism);
    }
    this.instanceIndex = index;
    this.parallelism = parallelism;
    return this;
  }

  /** The job takes epoch snapshots ({@link #checkpointingEnabled()}). */
  TestOperatorContext withCheckpointing() {
    this.checkpointing = true;
    return this;
  }

  /**
   * This instance resumes from {@code epoch}, whose previous instances wrote {@code
   * previousDirectories} (one per previous instance, in instance order). Call after {@link
   * #asInstance}.
   */
  TestOperatorContext restoringFrom(long epoch, List<Path> previousDirectories) {
    this.restore = new Restore(epoch, List.copyOf(previousDirectories), instanceIndex, parallelism);
    return this;
  }

  @Override
  public Output output() {
    return output;
  }

  @Override
  public int instanceIndex() {
    return instanceIndex;
  }

  @Override
  public int parallelism() {
    return parallelism;
  }

  @Override
  public Path stateDirectory() {
    return stateDirectory;
  }

  /**
   * Records what {@code recordAs} makes of each emitted element, for outputs that are only valid
   * while they are emitted (a bag's values before the pane's state is cleared).
   */
  TestOperatorContext recordingAs(Function<Object, Object> recordAs) {
    this.recordAs = recordAs;
    return this;
  }

  /** Sets the clock {@link #currentProcessingTime()} reads (0 until set). */
  void setProcessingTime(long millis) {
    this.processingTime = millis;
  }

  @Override
  public long currentProcessingTime() {
    return processingTime;
  }

  @Override
  public long currentInputWatermark() {
    return Long.MIN_VALUE;
  }

  @Override
  public OperatorRestore restore() {
    return restore;
  }

  @Override
  public boolean checkpointingEnabled() {
    return checkpointing;
  }

  /** One instance's part of an epoch, written into {@code directory} (created on first use). */
  static final class Snapshot implements OperatorSnapshot {
    private final long epoch;
    private final Path directory;
    final List<CompletableFuture<?>> asyncParts = new ArrayList<>();

    Snapshot(long epoch, Path directory) {
      this.epoch = epoch;
      this.directory = directory;
    }

    @Override
    public long epoch() {
      return epoch;
    }

    @Override
    public Path directory() {
      try {
        return Files.createDirectories(directory);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void completeAsync(CompletableFuture<?> part) {
      asyncParts.add(part);
    }
  }

  /**
   * The checkpoint instance {@code instanceIndex} of {@code parallelism} resumes from, as the
   * runtime describes it: one directory per previous instance.
   */
  record Restore(long epoch, List<Path> previousDirectories, int instanceIndex, int parallelism)
      implements OperatorRestore {
    @Override
    public int previousParallelism() {
      return previousDirectories.size();
    }

    @Override
    public Path directoryOf(int previousInstance) {
      return previousDirectories.get(previousInstance);
    }

    @Override
    public boolean sameParallelism() {
      return parallelism == previousDirectories.size();
    }

    @Override
    public Path ownDirectory() {
      if (!sameParallelism()) {
        throw new IllegalStateException("parallelism changed, no own directory");
      }
      return previousDirectories.get(instanceIndex);
    }
  }
}
