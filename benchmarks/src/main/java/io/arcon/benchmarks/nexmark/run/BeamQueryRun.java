package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.BenchmarkRunners;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.query.NexmarkQuery;
import io.arcon.runner.ArconRunner;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/** Runs a query's Beam pipeline once on ArconRunner or DirectRunner and reads its digest. */
final class BeamQueryRun {
  private BeamQueryRun() {}

  static QueryRun run(
      RunnerKind runner,
      String name,
      NexmarkQuery query,
      RunSettings settings,
      String[] args,
      boolean collect) {
    NexmarkOptions options = PipelineOptionsFactory.fromArgs(args).as(NexmarkOptions.class);
    options.setParallelism(settings.parallelism());
    options.setJobName(
        ("nexmark-" + name + "-" + runner.flag + "-" + System.nanoTime()).toLowerCase(Locale.ROOT));
    switch (runner) {
      case ARCON -> {
        options.setRunner(ArconRunner.class);
        // The benchmark measures the runtime: no TSS registration, no UI, no progress lines.
        options.setTss("off");
        options.setWebUi("off");
        options.setProgress("off");
      }
      case DIRECT ->
          BenchmarkRunners.directRunnerWithoutChecks(options)
              .setTargetParallelism(settings.parallelism());
      case FLINK -> throw new IllegalArgumentException("Flink runs are not Beam pipelines");
    }
    boolean streaming = settings.mode() == Mode.STREAMING;
    String latencyRunId = streaming ? Latency.open(settings.generator().baseTimeMillis()) : null;
    String collectRunId = collect ? CollectedOutputs.open() : null;
    try {
      Pipeline pipeline = Pipeline.create(options);
      PCollection<Event> events =
          streaming
              ? BeamSources.paced(
                  pipeline,
                  settings.eventGenerator(),
                  settings.events(),
                  settings.rate(),
                  latencyRunId)
              : BeamSources.bounded(pipeline, settings.eventGenerator(), settings.events());
      query
          .beam(events, settings.queries())
          .apply(
              "Digest",
              ParDo.of(
                  new BeamDigestSink(
                      query.latencyMeasurable() ? latencyRunId : null, collectRunId)));
      TimedPipelineRun run = TimedPipelineRun.of(pipeline, name + " on " + runner.label);
      Digest digest =
          new Digest(
              run.counter(DigestNames.NAMESPACE, DigestNames.RECORDS),
              run.counter(DigestNames.NAMESPACE, DigestNames.LOW),
              run.counter(DigestNames.NAMESPACE, DigestNames.HIGH),
              run.counter(DigestNames.NAMESPACE, DigestNames.COUNTED_BIDS));
      return QueryRun.finish(run.seconds(), digest, latencyRunId, collectRunId);
    } finally {
      QueryRun.release(latencyRunId, collectRunId);
    }
  }
}
