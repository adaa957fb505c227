package io.arcon.runtime.operator;

import java.nio.file.Path;

/** What the runtime gives an operator instance. */
public interface OperatorContext {
  Output output();

  /** This operator's parallel instance index, {@code 0 <= index < parallelism()}. */
  int instanceIndex();

  int parallelism();

  /** A private directory for persistent state of this operator instance (created on demand). */
  Path stateDirectory();

  /** The current processing time in epoch milliseconds (the job's clock). */
  long currentProcessingTime();

  /** The operator's current input watermark. */
  long currentInputWatermark();
}
