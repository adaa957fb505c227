package io.arcon.runner.operators;

import io.arcon.runtime.operator.SourceOperator;
import io.arcon.runtime.operator.SourceOperator.PollResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The parallel instances of one source operator, driven as nodes drive them: each poll is a bundle
 * of its own, a snapshot is taken between bundles into one directory per instance.
 */
final class SourceInstances implements AutoCloseable {
  private static final int MAX_POLLS = 1_000_000;

  final List<SourceOperator> operators = new ArrayList<>();
  final List<TestOperatorContext> contexts = new ArrayList<>();
  private final boolean[] done;

  private SourceInstances(
      Supplier<? extends SourceOperator> factory, List<TestOperatorContext> contexts)
      throws Exception {
    this.contexts.addAll(contexts);
    this.done = new boolean[contexts.size()];
    for (TestOperatorContext context : contexts) {
      SourceOperator operator = factory.get();
      operator.open(context);
      operators.add(operator);
    }
  }

  /** Fresh instances 0..parallelism-1. */
  static SourceInstances start(
      Supplier<? extends SourceOperator> factory, int parallelism, boolean checkpointing)
      throws Exception {
    List<TestOperatorContext> contexts = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      TestOperatorContext context = new TestOperatorContext(null).asInstance(i, parallelism);
      contexts.add(checkpointing ? context.withCheckpointing() : context);
    }
    return new SourceInstances(factory, contexts);
  }

  /** Instances 0..parallelism-1 resuming from the directories {@link #snapshot} wrote. */
  static SourceInstances restore(
      Supplier<? extends SourceOperator> factory,
      int parallelism,
      long epoch,
      List<Path> previousDirectories)
      throws Exception {
    List<TestOperatorContext> contexts = new ArrayList<>();
    for (int i = 0; i < parallelism; i++) {
      contexts.add(
          new TestOperatorContext(null)
              .asInstance(i, parallelism)
              .withCheckpointing()
              .restoringFrom(epoch, previousDirectories));
    }
    return new SourceInstances(factory, contexts);
  }

  /** One bundle of instance {@code i}: start, a poll of up to {@code maxElements}, finish. */
  PollResult pollOnce(int i, int maxElements) throws Exception {
    SourceOperator operator = operators.get(i);
    operator.startBundle();
    PollResult result = operator.poll(maxElements);
    operator.finishBundle();
    if (result == PollResult.DONE) {
      done[i] = true;
    }
    return result;
  }

  /**
   * Polls the instances round-robin until together they emitted at least {@code count} more
   * elements or all are done; returns whether all are done.
   */
  boolean pollAtLeast(long count, int maxElementsPerPoll) throws Exception {
    long target = totalEmitted() + count;
    for (int polls = 0; polls < MAX_POLLS; polls++) {
      if (allDone() || totalEmitted() >= target) {
        return allDone();
      }
      int i = polls % operators.size();
      if (!done[i]) {
        pollOnce(i, maxElementsPerPoll);
      }
    }
    throw new AssertionError("the source did not get there in " + MAX_POLLS + " polls");
  }

  /** Polls every instance until all are done. */
  void pollToEnd(int maxElementsPerPoll) throws Exception {
    pollAtLeast(Long.MAX_VALUE / 2, maxElementsPerPoll);
  }

  boolean allDone() {
    for (boolean d : done) {
      if (!d) {
        return false;
      }
    }
    return true;
  }

  long totalEmitted() {
    return contexts.stream().mapToLong(c -> c.emitted.size()).sum();
  }

  /** Every instance's output so far, concatenated in instance order. */
  List<Object> allEmitted() {
    List<Object> all = new ArrayList<>();
    contexts.forEach(c -> all.addAll(c.emitted));
    return all;
  }

  /** Forgets what was emitted so far (the output before a snapshot stays with the caller). */
  List<List<Object>> takeEmitted() {
    List<List<Object>> taken = new ArrayList<>();
    for (TestOperatorContext context : contexts) {
      taken.add(new ArrayList<>(context.emitted));
      context.emitted.clear();
    }
    return taken;
  }

  /** Snapshots epoch {@code epoch} of every instance into {@code root/epoch-N/instance-I}. */
  List<Path> snapshot(long epoch, Path root) throws Exception {
    List<Path> directories = new ArrayList<>();
    for (int i = 0; i < operators.size(); i++) {
      Path directory = root.resolve("epoch-" + epoch).resolve("instance-" + i);
      TestOperatorContext.Snapshot snapshot = new TestOperatorContext.Snapshot(epoch, directory);
      operators.get(i).snapshotState(snapshot);
      // The runtime's directory exists even when an operator saved nothing.
      directories.add(Files.createDirectories(directory));
    }
    return directories;
  }

  void epochCompleted(long epoch) throws Exception {
    for (SourceOperator operator : operators) {
      operator.epochCompleted(epoch);
    }
  }

  @Override
  public void close() throws Exception {
    for (SourceOperator operator : operators) {
      operator.close();
    }
  }
}
