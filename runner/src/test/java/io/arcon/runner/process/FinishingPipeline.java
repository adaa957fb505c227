package io.arcon.runner.process;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * A user's {@code main}: a bounded stateful pipeline on {@link ArconRunner} with its defaults (web
 * UI on, TSS on, so the embedded control plane starts), then {@code main} returns without {@code
 * System.exit}. Run by {@link JvmExitTest} in a JVM of its own, which must then end by itself.
 */
public final class FinishingPipeline {
  static final String DONE = "FinishingPipeline DONE";

  private FinishingPipeline() {}

  /** Counts per key in ValueState: a stateful transform, so the job registers with TSS. */
  static final class CountPerKey extends DoFn<KV<Long, Long>, Long> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(@Element KV<Long, Long> element, @StateId("count") ValueState<Long> count) {
      Long current = count.read();
      count.write(current == null ? 1 : current + 1);
    }
  }

  public static void main(String[] args) {
    ArconPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Numbers", GenerateSequence.from(0).to(10_000))
        .apply("Key", WithKeys.of((Long x) -> x % 17).withKeyType(TypeDescriptors.longs()))
        .apply("CountPerKey", ParDo.of(new CountPerKey()));
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    System.out.println(DONE + " " + state);
  }
}
