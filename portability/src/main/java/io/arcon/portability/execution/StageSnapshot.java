package io.arcon.portability.execution;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * What an executable stage keeps in a checkpoint besides its keyed state (which its state backend
 * snapshots): the side inputs it has seen with their watermarks, main-input elements held back for
 * side inputs, residuals of splittable DoFns waiting to resume, and its input watermark.
 *
 * <p>Side inputs are broadcast, so every previous instance has them all and one copy is read. Held
 * elements and residuals are redistributed by previous instance index when the parallelism changed;
 * a keyed stage must keep them with their key, so it resumes them only at the same parallelism.
 */
final class StageSnapshot {
  static final String FILE = "executable-stage";
  private static final String KIND = "executable-stage";
  private static final int FORMAT = 1;

  private StageSnapshot() {}

  static void write(ExecutableStageOperator stage, OperatorSnapshot snapshot) throws IOException {
    ExecutableStageOperator.Spec spec = stage.spec();
    SnapshotWriter out = new SnapshotWriter(KIND, FORMAT);
    StageSideInputs sides = stage.sideInputs();
    out.writeInt(sides.size());
    for (int i = 0; i < sides.size(); i++) {
      Coder<WindowedValue<?>> coder = spec.sideInputs().get(i).coder();
      out.writeLong(sides.watermarkOf(i));
      List<WindowedValue<?>> elements = sides.elementsOf(i);
      out.writeInt(elements.size());
      for (WindowedValue<?> e : elements) {
        out.writeEncoded(coder, e);
      }
    }
    List<WindowedValue<?>> held = stage.heldElements();
    out.writeInt(held.size());
    for (WindowedValue<?> e : held) {
      out.writeEncoded(spec.inputCoder(), e);
    }
    List<ExecutableStageOperator.Residual> residuals = stage.residuals();
    out.writeInt(residuals.size());
    for (ExecutableStageOperator.Residual r : residuals) {
      out.writeEncoded(spec.inputCoder(), r.element());
      out.writeLong(r.resumeAt());
      out.writeLong(r.hold());
    }
    out.writeLong(stage.inputWatermark());
    out.writeTo(snapshot.directory().resolve(FILE));
  }

  static void restore(ExecutableStageOperator stage, OperatorRestore restore) throws IOException {
    ExecutableStageOperator.Spec spec = stage.spec();
    int index = stage.instanceIndex();
    int parallelism = stage.parallelism();
    List<WindowedValue<?>> held = new ArrayList<>();
    List<ExecutableStageOperator.Residual> residuals = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    boolean sidesRead = false;
    for (int previous = 0; previous < restore.previousParallelism(); previous++) {
      Path file = restore.directoryOf(previous).resolve(FILE);
      if (!Files.exists(file)) {
        continue; // that instance had finished before the cut
      }
      boolean mine =
          restore.sameParallelism() ? previous == index : previous % parallelism == index;
      SnapshotReader in = SnapshotReader.open(file, KIND, FORMAT);
      int sides = in.readInt("side inputs");
      if (sides != spec.sideInputs().size()) {
        throw in.corrupt(
            "it has " + sides + " side inputs, the stage has " + spec.sideInputs().size(), null);
      }
      for (int i = 0; i < sides; i++) {
        Coder<WindowedValue<?>> coder = spec.sideInputs().get(i).coder();
        long sideWatermark = in.readLong("side input watermark");
        int count = in.readCount("side input elements", 1);
        for (int k = 0; k < count; k++) {
          WindowedValue<?> e = in.readEncoded(coder, "side input element");
          if (!sidesRead) {
            stage.sideInputs().add(i, e);
          }
        }
        if (!sidesRead) {
          stage.sideInputs().advanceWatermark(i, sideWatermark);
        }
      }
      sidesRead = true;
      int heldCount = in.readCount("held elements", 1);
      List<WindowedValue<?>> heldHere = new ArrayList<>();
      for (int k = 0; k < heldCount; k++) {
        heldHere.add(in.readEncoded(spec.inputCoder(), "held element"));
      }
      int residualCount = in.readCount("residuals", 1);
      List<ExecutableStageOperator.Residual> residualsHere = new ArrayList<>();
      for (int k = 0; k < residualCount; k++) {
        WindowedValue<?> element = in.readEncoded(spec.inputCoder(), "residual");
        residualsHere.add(
            new ExecutableStageOperator.Residual(
                element, in.readLong("residual resume time"), in.readLong("residual hold")));
      }
      long instanceWatermark = in.readLong("input watermark");
      in.expectEnd();
      if (spec.keys() != null
          && !restore.sameParallelism()
          && (!heldHere.isEmpty() || !residualsHere.isEmpty())) {
        throw new IllegalStateException(
            "Stage '"
                + spec.stepName()
                + "' checkpointed keyed elements in flight (held for side inputs or residuals"
                + " of a splittable DoFn); resume it at its previous parallelism "
                + restore.previousParallelism()
                + ".");
      }
      if (mine) {
        held.addAll(heldHere);
        residuals.addAll(residualsHere);
        watermark = Math.max(watermark, instanceWatermark);
      }
    }
    stage.restored(held, residuals, watermark);
  }
}
