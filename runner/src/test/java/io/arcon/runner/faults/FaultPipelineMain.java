package io.arcon.runner.faults;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.Validation;

/**
 * Runs the {@link FaultPipeline} in a process of its own (the kill -9 test starts, kills and
 * resumes it), e.g.:
 *
 * <pre>
 * java -cp CLASSPATH io.arcon.runner.faults.FaultPipelineMain --outputDir=/tmp/out --tss=off \
 *   --stateBackend=rocksdb --checkpointingInterval=30 --checkpointDir=/tmp/ckpt --jobName=faults
 * # after kill -9:
 * java -cp CLASSPATH io.arcon.runner.faults.FaultPipelineMain ... --restoreFrom=/tmp/ckpt/faults
 * </pre>
 *
 * It always runs on ArconRunner. Exits 0 when the pipeline is DONE, 1 otherwise.
 */
public final class FaultPipelineMain {
  /** The stream and where the output goes, besides the runner's options. */
  public interface Options extends ArconPipelineOptions {
    @Description("Directory the windowed text files are written to.")
    @Validation.Required
    String getOutputDir();

    void setOutputDir(String directory);

    @Description("Events in the stream.")
    @Default.Integer(10_000)
    Integer getEvents();

    void setEvents(Integer events);

    @Description("Seed of the stream's keys, values, disorder and late events.")
    @Default.Long(14L)
    Long getSeed();

    void setSeed(Long seed);

    @Description("Distinct keys.")
    @Default.Integer(6)
    Integer getKeys();

    void setKeys(Integer keys);

    @Description("Pace of the source in events per second.")
    @Default.Integer(5_000)
    Integer getEventsPerSecond();

    void setEventsPerSecond(Integer eventsPerSecond);
  }

  private FaultPipelineMain() {}

  public static void main(String[] args) {
    PipelineOptionsFactory.register(Options.class);
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    options.setRunner(ArconRunner.class);
    Pipeline p = Pipeline.create(options);
    FaultPipeline.build(p, streamOf(options), Path.of(options.getOutputDir()));
    PipelineResult.State state = p.run().waitUntilFinish();
    System.out.println("FaultPipelineMain finished: " + state);
    System.exit(state == PipelineResult.State.DONE ? 0 : 1);
  }

  static EventStream streamOf(Options options) {
    return new EventStream(
        options.getEvents(), options.getSeed(), options.getKeys(), options.getEventsPerSecond());
  }
}
