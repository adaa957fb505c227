package io.arcon.portability.execution;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runner.ArconRunner;
import io.arcon.runner.translation.Translation;
import io.arcon.runner.webui.WebUiOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.fnexecution.provisioning.JobInfo;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.graph.FusedPipeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs portable pipelines on the Arcon runtime: fuses the pipeline into executable stages, builds
 * the job graph and starts it. Each executable stage runs as an operator that drives an SDK harness
 * over the Fn API.
 */
public final class PortablePipelineExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(PortablePipelineExecutor.class);

  private PortablePipelineExecutor() {}

  /**
   * Checks and starts {@code spec}'s pipeline.
   *
   * @throws IllegalArgumentException for a pipeline it cannot run (unknown transform URN, DOCKER or
   *     unknown environment, a malformed pipeline); the message says what and what to do instead
   */
  public static PortableJob start(PortableJobSpec spec) {
    PipelineOptions options;
    try {
      options = PipelineOptionsTranslation.fromProto(spec.pipelineOptions());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "The pipeline options are not valid: " + e.getMessage(), e);
    }
    // Beam parses a value on its getter's first call: check what the client set before starting.
    OptionValues.check(spec.pipelineOptions(), options);
    ArconPipelineOptions arcon = options.as(ArconPipelineOptions.class);
    refuseTss(arcon);
    List<String> notices = new java.util.ArrayList<>();
    shareTheWebUi(arcon.as(WebUiOptions.class), notices);
    // Clients of other SDKs name no runner (or their own): the job service's runner is this one.
    arcon.setRunner(ArconRunner.class);
    arcon.setJobName(spec.jobName());
    ArconRunner runner = ArconRunner.fromOptions(arcon);
    FusedPipeline fused = PortablePipelinePreparation.prepare(spec.pipeline());
    JobInfo jobInfo =
        JobInfo.create(spec.jobId(), spec.jobName(), spec.retrievalToken(), spec.pipelineOptions());
    JobBundles bundles = new JobBundles(jobInfo);
    MetricsContainerStepMap metrics = new MetricsContainerStepMap();
    ArconPipelineResult result;
    try {
      Translation translation = PortableTranslator.translate(fused, arcon, metrics, bundles);
      LOG.info(
          "Job {} ({}): {} executable stages, graph:\n{}",
          spec.jobId(),
          spec.jobName(),
          fused.getFusedStages().size(),
          translation.graph().describe());
      result = runner.runTranslated(translation, metrics);
    } catch (RuntimeException | Error e) {
      closeQuietly(bundles);
      throw e;
    }
    CompletableFuture<PipelineResult.State> termination =
        result.termination().whenComplete((state, error) -> closeQuietly(bundles));
    return new RunningJob(result, termination, metrics, bundles, List.copyOf(notices));
  }

  /**
   * Refuses a job that asks for TSS: the state of a portable pipeline's stages is not registered
   * with a TSS control plane, so {@code --tss=on} or {@code --tssExport} would be ignored, and a
   * user would look for an app that never appears.
   */
  private static void refuseTss(ArconPipelineOptions options) {
    String tss = options.getTss();
    String exports = options.getTssExport();
    boolean exportGiven = exports != null && !exports.isBlank();
    if (!exportGiven && (tss == null || !tss.trim().equalsIgnoreCase("on"))) {
      return;
    }
    String given = exportGiven ? "--tssExport=" + exports : "--tss=" + tss;
    throw new UnsupportedOperationException(
        given
            + " was given, but TSS does not read the state of pipelines submitted through the Job"
            + " Service yet: their stages' state is not registered with a TSS control plane."
            + " TSS extracts the state of Java pipelines run with --runner=ArconRunner. Drop --tss"
            + " and --tssExport from this job's options (or pass --tss=off).");
  }

  /**
   * Puts the job on the job server's one web UI. ArconRunner keeps a web UI server per first port,
   * address and token for the life of the JVM, which suits a user's JVM; in a job server, every
   * port a client asked for stayed bound until the server stopped. A client's {@code --webUiPort}
   * is therefore overridden (with a notice to the client); {@code --webUiAddress} and {@code
   * --webUiToken} are refused, since the shared UI serves loopback without a token and quietly
   * showing a job the client meant to protect there would be worse. {@code --webUi=off} stays the
   * client's choice.
   */
  private static void shareTheWebUi(WebUiOptions ui, List<String> notices) {
    WebUiOptions shared = PipelineOptionsFactory.create().as(WebUiOptions.class);
    String address = ui.getWebUiAddress();
    String token = ui.getWebUiToken();
    if ((address != null && !address.equals(shared.getWebUiAddress()))
        || (token != null && !token.isEmpty())) {
      throw new IllegalArgumentException(
          "--webUiAddress and --webUiToken cannot be chosen per job on a job server: its jobs share"
              + " one web UI on "
              + shared.getWebUiAddress()
              + " without a token. Drop them (or pass --webUi=off for no web UI).");
    }
    Integer port = ui.getWebUiPort();
    if (port != null && !port.equals(shared.getWebUiPort())) {
      notices.add(
          "--webUiPort="
              + port
              + " is ignored: the jobs of this job server share its web UI (port "
              + shared.getWebUiPort()
              + " or the next free one; its address is in the job server's log).");
      ui.setWebUiPort(shared.getWebUiPort());
    }
  }

  private static void closeQuietly(JobBundles bundles) {
    try {
      bundles.close();
    } catch (Exception e) {
      LOG.warn("Closing the SDK harnesses failed", e);
    }
  }

  /** A started job seen through {@link PortableJob}. */
  private record RunningJob(
      ArconPipelineResult result,
      CompletableFuture<PipelineResult.State> termination,
      MetricsContainerStepMap metrics,
      JobBundles bundles,
      List<String> notices)
      implements PortableJob {

    @Override
    public PipelineResult.State state() {
      // RUNNING until the harnesses are closed too, so a client that sees DONE can reuse them.
      return termination.isDone() ? termination.join() : PipelineResult.State.RUNNING;
    }

    @Override
    public Throwable failure() {
      return result.failure();
    }

    /**
     * Requests the cancel and returns: the job's state goes CANCELLED through {@link #termination}
     * once its nodes are down. Waiting here (as {@link ArconPipelineResult#cancel} does) would hold
     * the client's Cancel call for as long as a bundle is in flight.
     */
    @Override
    public void cancel() {
      result.observedJob().monitor().cancel();
      // The nodes stop between elements; one waiting for a harness's bundle would keep the job
      // running until the bundle is done: fail the bundles in flight instead.
      bundles.abort();
    }

    @Override
    public List<MetricsApi.MonitoringInfo> monitoringInfos() {
      synchronized (metrics) {
        java.util.ArrayList<MetricsApi.MonitoringInfo> infos = new java.util.ArrayList<>();
        metrics.getMonitoringInfos().forEach(infos::add);
        return infos;
      }
    }
  }
}
