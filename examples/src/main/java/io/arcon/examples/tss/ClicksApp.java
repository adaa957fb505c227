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
 * The {@code clicks} app of the TSS demo: per-user click counts from an unbounded, out-of-order
 * stream of clicks. The count lives in {@code @StateId("clicks")} of {@link CountClicks}, which the
 * TSS control plane lists as state {@code clicks.clicks}; {@code @RequiresTimeSortedInput} makes
 * its versions exact (the count of exactly the clicks before {@code T}).
 *
 * <pre>
 * mvn -q -pl examples -am compile exec:java -Dexec.mainClass=io.arcon.examples.tss.ClicksApp
 * </pre>
 */
public final class ClicksApp {

  /** The app's name with the TSS control plane unless {@code --jobName} says otherwise. */
  public static final String JOB_NAME = "clicks";

  /** The seed of the clicks unless {@code --seed} says otherwise. */
  public static final long SEED = 1;

  private ClicksApp() {}

  /** Counts a user's clicks in event-time order; emits the user's count after each click. */
  public static class CountClicks extends DoFn<KV<String, Long>, KV<String, Long>> {

    @StateId("clicks")
    private final StateSpec<ValueState<Long>> clicksSpec = StateSpecs.value(VarLongCoder.of());

    @RequiresTimeSortedInput
    @ProcessElement
    public void processElement(
        @Element KV<String, Long> click,
        @StateId("clicks") ValueState<Long> clicks,
        OutputReceiver<KV<String, Long>> out) {
      Long before = clicks.read();
      long count = (before == null ? 0 : before) + 1;
      clicks.write(count);
      out.output(KV.of(click.getKey(), count));
    }
  }

  /** The clicks the options describe: one per event, each worth 1. */
  public static SimulatedEvents events(DemoOptions options) {
    return DemoApps.events(options, SEED, 1, 1);
  }

  /** Adds the app to {@code pipeline}; returns each user's running count (for tests). */
  public static PCollection<KV<String, Long>> build(Pipeline pipeline, DemoOptions options) {
    return DemoApps.read(pipeline, "ReadClicks", options, events(options))
        .apply("CountClicks", ParDo.of(new CountClicks()));
  }

  public static void main(String[] args) {
    DemoOptions options = DemoApps.options(args, JOB_NAME);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, options);
    DemoApps.run(pipeline, options, events(options));
  }
}
