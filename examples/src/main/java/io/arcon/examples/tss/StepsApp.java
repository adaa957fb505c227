package io.arcon.examples.tss;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The {@code steps} app of the TSS demo: per-user step counts from an unbounded, out-of-order
 * stream of step increments (the same users as {@link ClicksApp}, its own seed). The total lives in
 * {@code @StateId("steps")} of {@link CountSteps}, state {@code steps.steps} for the TSS control
 * plane, exact by {@code @RequiresTimeSortedInput}.
 *
 * <pre>
 * mvn -q -pl examples -am compile exec:java -Dexec.mainClass=io.arcon.examples.tss.StepsApp
 * </pre>
 */
public final class StepsApp {

  /** The app's name with the TSS control plane unless {@code --jobName} says otherwise. */
  public static final String JOB_NAME = "steps";

  /** The seed of the step events unless {@code --seed} says otherwise. */
  public static final long SEED = 2;

  /** Steps one event reports, at least and at most. */
  public static final long MIN_STEPS = 10;

  public static final long MAX_STEPS = 200;

  private StepsApp() {}

  /** Sums a user's steps in event-time order; emits the user's total after each event. */
  public static class CountSteps extends DoFn<KV<String, Long>, KV<String, Long>> {

    @StateId("steps")
    private final StateSpec<ValueState<Long>> stepsSpec = StateSpecs.value(VarLongCoder.of());

    @RequiresTimeSortedInput
    @ProcessElement
    public void processElement(
        @Element KV<String, Long> increment,
        @StateId("steps") ValueState<Long> steps,
        OutputReceiver<KV<String, Long>> out) {
      Long before = steps.read();
      long total = (before == null ? 0 : before) + increment.getValue();
      steps.write(total);
      out.output(KV.of(increment.getKey(), total));
    }
  }

  /** The step events the options describe. */
  public static SimulatedEvents events(DemoOptions options) {
    return DemoApps.events(options, SEED, MIN_STEPS, MAX_STEPS);
  }

  /** Adds the app to {@code pipeline}; returns each user's running total (for tests). */
  public static PCollection<KV<String, Long>> build(Pipeline pipeline, DemoOptions options) {
    return DemoApps.read(pipeline, "ReadSteps", options, events(options))
        .apply("CountSteps", ParDo.of(new CountSteps()));
  }

  public static void main(String[] args) {
    DemoOptions options = DemoApps.options(args, JOB_NAME);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, options);
    DemoApps.run(pipeline, options, events(options));
  }
}
