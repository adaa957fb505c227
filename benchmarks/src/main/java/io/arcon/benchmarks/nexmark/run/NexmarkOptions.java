package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.runner.ArconPipelineOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** Flags of the Nexmark benchmark; {@code --parallelism} is ArconRunner's own (default here: 2). */
public interface NexmarkOptions extends ArconPipelineOptions, ResultsFileOptions {

  @Description("Comma-separated query numbers to run (default: all of 0,1,2,3,4,5,6,7,8,11,12)")
  @Default.String("0,1,2,3,4,5,6,7,8,11,12")
  String getQueries();

  void setQueries(String value);

  @Description("Events of each measured run")
  @Default.Long(2_000_000)
  long getEvents();

  void setEvents(long value);

  @Description(
      "Events of each measured DirectRunner run (it is far slower); 0: as many as --events. Its"
          + " output is verified against the other runners' when this equals --warmupEvents")
  @Default.Long(200_000)
  long getDirectEvents();

  void setDirectEvents(long value);

  @Description(
      "Events of each runner's warm-up run per query (the same on every runner, so the warm-ups"
          + " are compared too); 0 skips the warm-up")
  @Default.Long(200_000)
  long getWarmupEvents();

  void setWarmupEvents(long value);

  @Description("Measured rounds: each round runs the query once on every runner")
  @Default.Integer(3)
  int getRuns();

  void setRuns(int value);

  @Description(
      "Batch mode: also measure each runner's steady-state rate, from a short run of a quarter of"
          + " the events before each measured run (events beyond the short run over the extra"
          + " time: start and stop costs left out)")
  @Default.Boolean(true)
  boolean getSteadyState();

  void setSteadyState(boolean value);

  @Description("Comma-separated runners: arcon, direct, flink")
  @Default.String("arcon,direct,flink")
  String getRunners();

  void setRunners(String value);

  @Description("batch (a bounded input, as fast as possible) or streaming (paced at --rate)")
  @Default.String("batch")
  String getMode();

  void setMode(String value);

  @Description("Events per second of the streaming source (streaming mode)")
  @Default.Long(100_000)
  long getRate();

  void setRate(long value);

  @Description("Events per second of event time in batch mode (sets how many windows there are)")
  @Default.Long(10_000)
  long getEventTimeRate();

  void setEventTimeRate(long value);

  @Description("Seed of the event generator")
  @Default.Long(1)
  long getSeed();

  void setSeed(long value);
}
