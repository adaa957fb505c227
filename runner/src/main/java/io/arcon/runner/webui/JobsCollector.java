package io.arcon.runner.webui;

import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.observe.JobStats;
import io.arcon.runtime.observe.NodeStats;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;

/**
 * The {@code /metrics} of a server's jobs, read at scrape time: per node instance its records,
 * watermarks, back-pressure and state; per job its state, attempts and epochs; and every Beam
 * metric as {@code PipelineResult.metrics()} reports it.
 *
 * <p>Labels: {@code job_id} (the job's id on the web UI: its name made URL-safe, unique on the
 * server), {@code transform} (a node's chain, named after its first transform; a Beam metric's
 * step), {@code vertex} (the chain's id) and {@code node_instance} (the parallel instance). Not
 * {@code job} and {@code instance}: Prometheus sets those on every scraped series itself and would
 * rename ours to {@code exported_job} and {@code exported_instance}.
 */
final class JobsCollector implements MultiCollector {
  static final String JOB = "job_id";
  static final String TRANSFORM = "transform";
  static final String VERTEX = "vertex";
  static final String INSTANCE = "node_instance";
  private static final Set<String> OWN_LABELS = Set.of(JOB, TRANSFORM, VERTEX, INSTANCE);
  private static final List<String> JOB_STATES = List.of("RUNNING", "DONE", "FAILED", "CANCELLED");

  private final JobRegistry jobs;

  JobsCollector(JobRegistry jobs) {
    this.jobs = jobs;
  }

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    for (RegisteredJob registered : jobs.all()) {
      collectJob(f, registered);
    }
    return f.build();
  }

  private static void collectJob(Families f, RegisteredJob registered) {
    ObservedJob job = registered.job();
    JobStats stats = job.stats();
    Labels jobLabels = Labels.of(JOB, registered.id());
    String state = job.state();
    StateSetSnapshot.StateSetDataPointSnapshot.Builder states =
        StateSetSnapshot.StateSetDataPointSnapshot.builder().labels(jobLabels);
    for (String possible : JOB_STATES) {
      states.state(possible, possible.equals(state));
    }
    f.jobState.dataPoint(states.build());
    f.attempts.dataPoint(counter(jobLabels, stats.attempts()));
    f.startTime.dataPoint(gauge(jobLabels, Unit.millisToSeconds(stats.startedAtMillis())));
    JobStats.EpochSample epochs = stats.sampleEpochs();
    f.epochsCompleted.dataPoint(counter(jobLabels, epochs.completed()));
    f.epochsGivenUp.dataPoint(counter(jobLabels, epochs.givenUp()));
    if (epochs.completed() > 0) {
      f.lastEpoch.dataPoint(gauge(jobLabels, epochs.lastCompleted()));
      f.lastEpochDuration.dataPoint(
          gauge(jobLabels, Unit.millisToSeconds(epochs.lastDurationMillis())));
      f.lastEpochBytes.dataPoint(gauge(jobLabels, epochs.lastBytes()));
    }
    stats
        .sampleNodeThreads()
        .ifPresent(
            threads -> {
              f.nodeThreads.dataPoint(gauge(jobLabels, threads.threads()));
              f.nodeThreadSteals.dataPoint(counter(jobLabels, threads.steals()));
              f.spareThreadsStarted.dataPoint(counter(jobLabels, threads.sparesStarted()));
              f.spareThreads.dataPoint(gauge(jobLabels, threads.sparesRunning()));
            });

    Map<Integer, Vertex> vertices = new HashMap<>();
    for (Vertex v : stats.graph().vertices()) {
      vertices.put(v.id(), v);
    }
    for (NodeStats.Sample node : stats.sampleNodes()) {
      Labels labels =
          Labels.of(
              JOB,
              registered.id(),
              TRANSFORM,
              vertices.get(node.vertexId()).name(),
              VERTEX,
              Integer.toString(node.vertexId()),
              INSTANCE,
              Integer.toString(node.instance()));
      f.recordsIn.dataPoint(counter(labels, node.recordsIn()));
      f.recordsOut.dataPoint(counter(labels, node.recordsOut()));
      if (node.inputWatermark() > BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis()) {
        f.inputWatermark.dataPoint(gauge(labels, watermarkSeconds(node.inputWatermark())));
      }
      if (node.outputWatermark() > BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis()) {
        f.outputWatermark.dataPoint(gauge(labels, watermarkSeconds(node.outputWatermark())));
      }
      f.backPressure.dataPoint(
          CounterDataPointSnapshot.builder()
              .labels(labels)
              .value(Unit.nanosToSeconds(node.blockedNanos()))
              .build());
      if (node.stateBytes() >= 0) {
        f.stateBytes.dataPoint(gauge(labels.add("engine", node.stateEngines()), node.stateBytes()));
      }
    }

    MetricQueryResults beam = registered.beamMetrics();
    for (MetricResult<Long> c : beam.getCounters()) {
      Labels labels = beamLabels(registered.id(), c);
      long value = c.getAttempted();
      if (value >= 0) {
        f.beamCounters.dataPoint(counter(labels, value));
      } else {
        // A Beam counter can go down (Counter.dec); a Prometheus counter cannot be negative.
        f.beamNegativeCounters.dataPoint(gauge(labels, value));
      }
    }
    for (MetricResult<DistributionResult> d : beam.getDistributions()) {
      Labels labels = beamLabels(registered.id(), d);
      DistributionResult value = d.getAttempted();
      f.beamDistributions.dataPoint(
          SummaryDataPointSnapshot.builder()
              .labels(labels)
              .count(value.getCount())
              .sum(value.getSum())
              .build());
      if (value.getCount() > 0) {
        f.beamDistributionMin.dataPoint(gauge(labels, value.getMin()));
        f.beamDistributionMax.dataPoint(gauge(labels, value.getMax()));
      }
    }
    for (MetricResult<GaugeResult> g : beam.getGauges()) {
      f.beamGauges.dataPoint(gauge(beamLabels(registered.id(), g), g.getAttempted().getValue()));
    }
  }

  /** The end of input (Beam's end of time) as +Inf, which a Prometheus value can say. */
  private static double watermarkSeconds(long millis) {
    return millis >= BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis()
        ? Double.POSITIVE_INFINITY
        : Unit.millisToSeconds(millis);
  }

  /**
   * job_id, transform (the step), namespace, name, and the metric's own labels (a system metric's
   * {@code PCOLLECTION}, say, as {@code pcollection}).
   */
  static Labels beamLabels(String jobId, MetricResult<?> result) {
    MetricName name = result.getName();
    List<String> names = new ArrayList<>(List.of(JOB, TRANSFORM, "namespace", "name"));
    List<String> values =
        new ArrayList<>(
            List.of(jobId, result.getKey().stepName(), name.getNamespace(), name.getName()));
    name.getLabels()
        .forEach(
            (key, value) -> {
              String label = PrometheusNaming.sanitizeLabelName(key.toLowerCase(Locale.ROOT));
              if (OWN_LABELS.contains(label) || names.contains(label)) {
                label = "beam_" + label;
              }
              names.add(label);
              values.add(value);
            });
    return Labels.of(names, values);
  }

  private static CounterDataPointSnapshot counter(Labels labels, double value) {
    return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  private static GaugeDataPointSnapshot gauge(Labels labels, double value) {
    return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  /** The metric families of one scrape; names follow Prometheus (base units, counters _total). */
  private static final class Families {
    final StateSetSnapshot.Builder jobState =
        StateSetSnapshot.builder()
            .name("arcon_job_state")
            .help("The job's state: RUNNING, DONE, FAILED or CANCELLED");
    final CounterSnapshot.Builder attempts =
        CounterSnapshot.builder()
            .name("arcon_job_attempts")
            .help("Attempts started: 1, plus one per restart");
    final GaugeSnapshot.Builder startTime =
        GaugeSnapshot.builder()
            .name("arcon_job_start_time_seconds")
            .unit(Unit.SECONDS)
            .help("When the job started, in seconds since the epoch");
    final CounterSnapshot.Builder epochsCompleted =
        CounterSnapshot.builder()
            .name("arcon_job_epochs_completed")
            .help("Epochs (checkpoints) made durable");
    final CounterSnapshot.Builder epochsGivenUp =
        CounterSnapshot.builder().name("arcon_job_epochs_given_up").help("Epochs given up");
    final GaugeSnapshot.Builder lastEpoch =
        GaugeSnapshot.builder().name("arcon_job_last_epoch").help("The newest durable epoch");
    final GaugeSnapshot.Builder lastEpochDuration =
        GaugeSnapshot.builder()
            .name("arcon_job_last_epoch_duration_seconds")
            .unit(Unit.SECONDS)
            .help("How long the newest durable epoch took from trigger to commit");
    final GaugeSnapshot.Builder lastEpochBytes =
        GaugeSnapshot.builder()
            .name("arcon_job_last_epoch_bytes")
            .unit(Unit.BYTES)
            .help("The size of the newest durable epoch's files");
    final GaugeSnapshot.Builder nodeThreads =
        GaugeSnapshot.builder()
            .name("arcon_job_node_threads")
            .help("Threads the job's node instances are pinned to (--pinNodes)");
    final CounterSnapshot.Builder nodeThreadSteals =
        CounterSnapshot.builder()
            .name("arcon_job_node_thread_steals")
            .help(
                "Node runs another thread took because the node's own thread was busy for over"
                    + " 2 ms: each leaves the node's caches behind");
    final CounterSnapshot.Builder spareThreadsStarted =
        CounterSnapshot.builder()
            .name("arcon_job_spare_threads_started")
            .help(
                "Spare threads started because every node thread was blocked (sleeping, waiting,"
                    + " or 50 ms in one task) while nodes waited");
    final GaugeSnapshot.Builder spareThreads =
        GaugeSnapshot.builder()
            .name("arcon_job_spare_threads")
            .help("Spare node threads running now");
    final CounterSnapshot.Builder recordsIn =
        CounterSnapshot.builder()
            .name("arcon_node_records_in")
            .help("Elements the node instance received from upstream nodes");
    final CounterSnapshot.Builder recordsOut =
        CounterSnapshot.builder()
            .name("arcon_node_records_out")
            .help(
                "Elements the node instance sent to downstream nodes (a broadcast element once"
                    + " per receiver)");
    final GaugeSnapshot.Builder inputWatermark =
        GaugeSnapshot.builder()
            .name("arcon_node_input_watermark_seconds")
            .unit(Unit.SECONDS)
            .help(
                "The node instance's input watermark in seconds since the epoch; +Inf at the end");
    final GaugeSnapshot.Builder outputWatermark =
        GaugeSnapshot.builder()
            .name("arcon_node_output_watermark_seconds")
            .unit(Unit.SECONDS)
            .help(
                "The watermark the node instance last sent, seconds since the epoch; +Inf at the end");
    final CounterSnapshot.Builder backPressure =
        CounterSnapshot.builder()
            .name("arcon_node_backpressure_seconds")
            .unit(Unit.SECONDS)
            .help("Time the node instance's output waited for credits (back-pressure)");
    final GaugeSnapshot.Builder stateBytes =
        GaugeSnapshot.builder()
            .name("arcon_node_state_bytes")
            .unit(Unit.BYTES)
            .help("Approximate size of the node instance's state, by engine");
    final CounterSnapshot.Builder beamCounters =
        CounterSnapshot.builder()
            .name("arcon_beam_counter")
            .help("Beam counters by step, as PipelineResult.metrics() reports them (attempted)");
    final GaugeSnapshot.Builder beamNegativeCounters =
        GaugeSnapshot.builder()
            .name("arcon_beam_negative_counter")
            .help("Beam counters below zero (decremented), which a Prometheus counter cannot be");
    final SummarySnapshot.Builder beamDistributions =
        SummarySnapshot.builder()
            .name("arcon_beam_distribution")
            .help("Beam distributions by step: count and sum");
    final GaugeSnapshot.Builder beamDistributionMin =
        GaugeSnapshot.builder()
            .name("arcon_beam_distribution_min")
            .help("Beam distributions by step: smallest value");
    final GaugeSnapshot.Builder beamDistributionMax =
        GaugeSnapshot.builder()
            .name("arcon_beam_distribution_max")
            .help("Beam distributions by step: largest value");
    final GaugeSnapshot.Builder beamGauges =
        GaugeSnapshot.builder()
            .name("arcon_beam_gauge")
            .help("Beam gauges by step: the latest value");

    MetricSnapshots build() {
      List<MetricSnapshot> all =
          List.of(
              jobState.build(),
              attempts.build(),
              startTime.build(),
              epochsCompleted.build(),
              epochsGivenUp.build(),
              lastEpoch.build(),
              lastEpochDuration.build(),
              lastEpochBytes.build(),
              nodeThreads.build(),
              nodeThreadSteals.build(),
              spareThreadsStarted.build(),
              spareThreads.build(),
              recordsIn.build(),
              recordsOut.build(),
              inputWatermark.build(),
              outputWatermark.build(),
              backPressure.build(),
              stateBytes.build(),
              beamCounters.build(),
              beamNegativeCounters.build(),
              beamDistributions.build(),
              beamDistributionMin.build(),
              beamDistributionMax.build(),
              beamGauges.build());
      return new MetricSnapshots(all);
    }
  }
}
