package io.arcon.runtime.node.chain;

import io.arcon.runtime.job.JobClock;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.Output;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executor;

/** What the node gives the operator at one position of its chain. */
final class ChainOperatorContext implements OperatorContext {
  private final OperatorChain chain;
  private final int operator;
  private final Output output;
  private final int instance;
  private final int parallelism;
  private final Path stateDirectory;
  private final Map<String, String> stateBackendOptions;
  private final JobClock clock;
  private final SynchronizedTime syncTime;
  private final Executor mailbox;
  private final OperatorRestore restore;
  private final boolean checkpointing;

  ChainOperatorContext(
      OperatorChain chain,
      int operator,
      Output output,
      int instance,
      int parallelism,
      Path stateDirectory,
      Map<String, String> stateBackendOptions,
      JobClock clock,
      SynchronizedTime syncTime,
      Executor mailbox,
      OperatorRestore restore,
      boolean checkpointing) {
    this.chain = chain;
    this.operator = operator;
    this.output = output;
    this.instance = instance;
    this.parallelism = parallelism;
    this.stateDirectory = stateDirectory;
    this.stateBackendOptions = stateBackendOptions;
    this.clock = clock;
    this.syncTime = syncTime;
    this.mailbox = mailbox;
    this.restore = restore;
    this.checkpointing = checkpointing;
  }

  @Override
  public Output output() {
    return output;
  }

  @Override
  public int instanceIndex() {
    return instance;
  }

  @Override
  public int parallelism() {
    return parallelism;
  }

  @Override
  public Path stateDirectory() {
    return stateDirectory;
  }

  @Override
  public Map<String, String> stateBackendOptions() {
    return stateBackendOptions;
  }

  @Override
  public long currentProcessingTime() {
    return clock.nowMillis();
  }

  @Override
  public long currentInputWatermark() {
    return chain.operatorInputWatermark(operator);
  }

  @Override
  public long currentSynchronizedProcessingTime() {
    return syncTime.current(clock.nowMillis());
  }

  @Override
  public void userTimerCallbackStarts() {
    syncTime.releaseWatermarkHolds();
  }

  @Override
  public Executor mailbox() {
    return mailbox;
  }

  @Override
  public OperatorRestore restore() {
    return restore;
  }

  @Override
  public boolean checkpointingEnabled() {
    return checkpointing;
  }
}
