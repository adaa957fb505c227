package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * Impulse: one empty byte array in the global window, emitted by instance 0 only. Its snapshot
 * records whether the impulse was emitted, so a restored job does not emit it again.
 */
public final class ImpulseSource implements SourceOperator {
  static final String SNAPSHOT_FILE = "impulse";
  private static final String SNAPSHOT_KIND = "impulse";
  private static final int SNAPSHOT_FORMAT = 1;

  private OperatorContext context;
  private boolean emitted;
  private boolean done;

  @Override
  public void open(OperatorContext context) throws Exception {
    this.context = context;
    // Whichever instance emitted it (instance 0 of the previous parallelism), it was emitted once
    // for the whole job; every previous instance is read, so any parallelism change is covered.
    OperatorRestore restore = context.restore();
    if (restore != null) {
      for (int i = 0; i < restore.previousParallelism(); i++) {
        Path directory = restore.directoryOf(i);
        if (RestoredInstances.finishedBeforeCut(directory)) {
          // Only instance 0 emits, and it finishes right after: finished means emitted.
          emitted |= i == 0;
          continue;
        }
        SnapshotReader in =
            SnapshotReader.open(directory.resolve(SNAPSHOT_FILE), SNAPSHOT_KIND, SNAPSHOT_FORMAT);
        emitted |= in.readBoolean("impulse emitted");
        in.expectEnd();
      }
    }
    this.done = emitted || context.instanceIndex() != 0;
  }

  @Override
  public PollResult poll(int maxElements) {
    if (!done) {
      context.output().emit(0, WindowedValues.valueInGlobalWindow(new byte[0]));
      emitted = true;
      done = true;
    }
    return PollResult.DONE;
  }

  @Override
  public long currentWatermark() {
    return done ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  @Override
  public void snapshotState(OperatorSnapshot snapshot) throws Exception {
    new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_FORMAT)
        .writeBoolean(emitted)
        .writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
  }
}
