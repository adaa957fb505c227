package io.arcon.runner.operators;

import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The context a node gives one operator instance, for driving an operator directly in a test:
 * instance 0 of 1, a fixed clock, and every emitted element collected in {@link #emitted}.
 */
final class TestOperatorContext implements OperatorContext {
  /** What the operator emitted, on any output, in order. */
  final List<Object> emitted = new ArrayList<>();

  private final Path stateDirectory;
  private final Output output = (index, element) -> emitted.add(element);

  /** {@code stateDirectory} may be null for operators without persistent state. */
  TestOperatorContext(Path stateDirectory) {
    this.stateDirectory = stateDirectory;
  }

  @Override
  public Output output() {
    return output;
  }

  @Override
  public int instanceIndex() {
    return 0;
  }

  @Override
  public int parallelism() {
    return 1;
  }

  @Override
  public Path stateDirectory() {
    return stateDirectory;
  }

  @Override
  public long currentProcessingTime() {
    return 0;
  }

  @Override
  public long currentInputWatermark() {
    return Long.MIN_VALUE;
  }
}
