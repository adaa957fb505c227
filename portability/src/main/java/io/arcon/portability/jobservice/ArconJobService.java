package io.arcon.portability.jobservice;

import io.arcon.portability.artifact.StagingRoot;
import io.arcon.portability.execution.PortableJob;
import io.arcon.portability.execution.PortableJobSpec;
import io.arcon.runner.ArconPipelineOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.model.pipeline.v1.Endpoints;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Beam's JobService over the Arcon runtime: prepares jobs (registering their artifacts with the
 * staging service), runs them through a {@link JobStarter}, and answers about them from memory.
 *
 * <p>Every staging session has its own directory under the {@link StagingRoot}; it is deleted when
 * the job ends, when its Run fails, or when a preparation is never run within the preparation
 * timeout.
 */
final class ArconJobService extends JobServiceGrpc.JobServiceImplBase implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ArconJobService.class);

  /** The options ArconRunner reads from a portable job; DescribePipelineOptions lists them. */
  static final List<Class<? extends PipelineOptions>> DESCRIBED_OPTIONS =
      List.of(ArconPipelineOptions.class, PortablePipelineOptions.class);

  private final ArtifactStagingService staging;
  private final StagingRoot stagingRoot;
  private final Endpoints.ApiServiceDescriptor artifactEndpoint;
  private final JobStarter starter;
  private final Duration preparationTimeout;
  private final int retainedFinishedJobs;

  private final Map<String, JobPreparation> preparations = new ConcurrentHashMap<>();
  private final Map<String, JobInvocation> jobs = new ConcurrentHashMap<>();

  /** Ids of finished jobs, oldest first, to forget the oldest beyond the retained number. */
  private final Deque<String> finishedJobs = new ArrayDeque<>();

  private final ScheduledExecutorService expiries =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "arcon-jobservice-expiry");
            thread.setDaemon(true);
            return thread;
          });

  private volatile List<JobApi.PipelineOptionDescriptor> optionDescriptors;

  ArconJobService(
      ArtifactStagingService staging,
      StagingRoot stagingRoot,
      Endpoints.ApiServiceDescriptor artifactEndpoint,
      JobStarter starter,
      Duration preparationTimeout,
      int retainedFinishedJobs) {
    this.staging = staging;
    this.stagingRoot = stagingRoot;
    this.artifactEndpoint = artifactEndpoint;
    this.starter = starter;
    this.preparationTimeout = preparationTimeout;
    this.retainedFinishedJobs = retainedFinishedJobs;
  }

  @Override
  public void prepare(
      JobApi.PrepareJobRequest request,
      StreamObserver<JobApi.PrepareJobResponse> responseObserver) {
    String jobName = request.getJobName().isBlank() ? "job" : request.getJobName();
    String preparationId = idPart(jobName) + "_" + UUID.randomUUID();
    String stagingToken = UUID.randomUUID().toString();
    try {
      stagingRoot.openSession(stagingToken);
    } catch (IOException e) {
      LOG.error("Cannot create the staging directory for {}", preparationId, e);
      responseObserver.onError(
          Status.INTERNAL
              .withDescription(
                  "cannot create the job's staging directory under "
                      + stagingRoot.root()
                      + ": "
                      + e.getMessage())
              .asException());
      return;
    }
    Map<String, List<RunnerApi.ArtifactInformation>> dependencies = new HashMap<>();
    request
        .getPipeline()
        .getComponents()
        .getEnvironmentsMap()
        .forEach((id, environment) -> dependencies.put(id, environment.getDependenciesList()));
    staging.registerJob(stagingToken, dependencies);
    preparations.put(
        preparationId,
        new JobPreparation(
            preparationId,
            jobName,
            request.getPipeline(),
            request.getPipelineOptions(),
            stagingToken,
            expiries.schedule(
                () -> expire(preparationId),
                preparationTimeout.toMillis(),
                TimeUnit.MILLISECONDS)));
    LOG.info("Prepared job {} ({} environments)", preparationId, dependencies.size());
    responseObserver.onNext(
        JobApi.PrepareJobResponse.newBuilder()
            .setPreparationId(preparationId)
            .setArtifactStagingEndpoint(artifactEndpoint)
            .setStagingSessionToken(stagingToken)
            .build());
    responseObserver.onCompleted();
  }

  @Override
  public void run(
      JobApi.RunJobRequest request, StreamObserver<JobApi.RunJobResponse> responseObserver) {
    // A preparation is run once: taken out whatever happens next.
    JobPreparation preparation = preparations.remove(request.getPreparationId());
    if (preparation == null) {
      responseObserver.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "unknown preparation id '"
                      + request.getPreparationId()
                      + "': call Prepare first and Run with the id it returns (a preparation is"
                      + " run once and expires after "
                      + preparationTimeout
                      + ")")
              .asException());
      return;
    }
    preparation.expiry().cancel(false);
    JobInvocation invocation;
    PortableJob job;
    try {
      PipelineStructure.check(preparation.pipeline());
      RunnerApi.Pipeline pipeline = withStagedDependencies(preparation);
      invocation =
          new JobInvocation(
              preparation.id(), preparation.jobName(), pipeline, preparation.options());
      job =
          starter.start(
              new PortableJobSpec(
                  preparation.id(),
                  preparation.jobName(),
                  pipeline,
                  preparation.options(),
                  preparation.stagingToken()));
    } catch (RuntimeException e) {
      discardSession(preparation.stagingToken());
      responseObserver.onError(runFailure(preparation.id(), e));
      return;
    }
    jobs.put(invocation.id(), invocation);
    invocation.started(job, () -> jobEnded(invocation.id(), preparation.stagingToken()));
    LOG.info("Started job {}", invocation.id());
    responseObserver.onNext(JobApi.RunJobResponse.newBuilder().setJobId(invocation.id()).build());
    responseObserver.onCompleted();
  }

  /** The gRPC error for a Run that did not start: INVALID_ARGUMENT for a pipeline it cannot run. */
  private static StatusException runFailure(String preparationId, RuntimeException e) {
    if (e instanceof IllegalArgumentException) {
      LOG.info("Refused job {}: {}", preparationId, e.getMessage());
      return Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException();
    }
    if (e instanceof UnsupportedOperationException) {
      LOG.info("Cannot run job {}: {}", preparationId, e.getMessage());
      return Status.UNIMPLEMENTED
          .withDescription("the runner cannot run this job: " + e.getMessage())
          .asException();
    }
    LOG.error("Could not start job {}", preparationId, e);
    return Status.INTERNAL
        .withDescription("could not start the job: " + FailureText.of(e))
        .asException();
  }

  /**
   * The submitted pipeline with each environment's dependencies replaced by the files the client
   * staged for it, as the staging service reports them.
   */
  private RunnerApi.Pipeline withStagedDependencies(JobPreparation preparation) {
    Map<String, List<RunnerApi.ArtifactInformation>> staged =
        staging.getStagedArtifacts(preparation.stagingToken());
    RunnerApi.Pipeline pipeline = preparation.pipeline();
    RunnerApi.Pipeline.Builder resolved = pipeline.toBuilder();
    for (Map.Entry<String, RunnerApi.Environment> entry :
        pipeline.getComponents().getEnvironmentsMap().entrySet()) {
      List<RunnerApi.ArtifactInformation> files =
          staged == null ? null : staged.get(entry.getKey());
      if (files == null) {
        if (entry.getValue().getDependenciesCount() > 0) {
          throw new IllegalArgumentException(
              "environment '"
                  + entry.getKey()
                  + "' declares "
                  + entry.getValue().getDependenciesCount()
                  + " dependencies, but none were staged; stage them through the artifact"
                  + " staging endpoint with the staging session token from Prepare before Run");
        }
        continue;
      }
      resolved
          .getComponentsBuilder()
          .putEnvironments(
              entry.getKey(),
              entry.getValue().toBuilder().clearDependencies().addAllDependencies(files).build());
    }
    return resolved.build();
  }

  private void jobEnded(String jobId, String stagingToken) {
    discardSession(stagingToken);
    List<String> forgotten = new ArrayList<>();
    synchronized (finishedJobs) {
      finishedJobs.addLast(jobId);
      while (finishedJobs.size() > retainedFinishedJobs) {
        forgotten.add(finishedJobs.removeFirst());
      }
    }
    forgotten.forEach(jobs::remove);
  }

  private void expire(String preparationId) {
    JobPreparation preparation = preparations.remove(preparationId);
    if (preparation != null) {
      LOG.info(
          "Preparation {} was not run within {}; dropped with its staged artifacts",
          preparationId,
          preparationTimeout);
      discardSession(preparation.stagingToken());
    }
  }

  /** Drops a staging session: the staging service's record of it and its directory. */
  private void discardSession(String stagingToken) {
    staging.getStagedArtifacts(stagingToken);
    try {
      staging.removeStagedArtifacts(stagingToken);
    } catch (IOException e) {
      LOG.warn(
          "Could not delete the staged artifacts in {}",
          stagingRoot.root().resolve(stagingToken),
          e);
    }
  }

  @Override
  public void getJobs(
      JobApi.GetJobsRequest request, StreamObserver<JobApi.GetJobsResponse> responseObserver) {
    JobApi.GetJobsResponse.Builder response = JobApi.GetJobsResponse.newBuilder();
    jobs.values().forEach(job -> response.addJobInfo(job.info()));
    responseObserver.onNext(response.build());
    responseObserver.onCompleted();
  }

  @Override
  public void getState(
      JobApi.GetJobStateRequest request, StreamObserver<JobApi.JobStateEvent> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      responseObserver.onNext(job.events().lastState());
      responseObserver.onCompleted();
    }
  }

  @Override
  public void getPipeline(
      JobApi.GetJobPipelineRequest request,
      StreamObserver<JobApi.GetJobPipelineResponse> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      responseObserver.onNext(
          JobApi.GetJobPipelineResponse.newBuilder().setPipeline(job.pipeline()).build());
      responseObserver.onCompleted();
    }
  }

  @Override
  public void cancel(
      JobApi.CancelJobRequest request, StreamObserver<JobApi.CancelJobResponse> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      job.cancel();
      responseObserver.onNext(JobApi.CancelJobResponse.newBuilder().setState(job.state()).build());
      responseObserver.onCompleted();
    }
  }

  @Override
  public void getStateStream(
      JobApi.GetJobStateRequest request, StreamObserver<JobApi.JobStateEvent> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      job.events().followStates(responseObserver);
    }
  }

  @Override
  public void getMessageStream(
      JobApi.JobMessagesRequest request,
      StreamObserver<JobApi.JobMessagesResponse> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      job.events().followMessages(responseObserver);
    }
  }

  @Override
  public void getJobMetrics(
      JobApi.GetJobMetricsRequest request,
      StreamObserver<JobApi.GetJobMetricsResponse> responseObserver) {
    JobInvocation job = job(request.getJobId(), responseObserver);
    if (job != null) {
      // The Arcon runtime reports each metric once; the figures of committed work are the
      // attempted ones, as in Beam's other local runners.
      var infos = job.monitoringInfos();
      responseObserver.onNext(
          JobApi.GetJobMetricsResponse.newBuilder()
              .setMetrics(
                  JobApi.MetricResults.newBuilder().addAllAttempted(infos).addAllCommitted(infos))
              .build());
      responseObserver.onCompleted();
    }
  }

  @Override
  public void describePipelineOptions(
      JobApi.DescribePipelineOptionsRequest request,
      StreamObserver<JobApi.DescribePipelineOptionsResponse> responseObserver) {
    List<JobApi.PipelineOptionDescriptor> descriptors = optionDescriptors;
    if (descriptors == null) {
      descriptors = PipelineOptionsFactory.describe(new LinkedHashSet<>(DESCRIBED_OPTIONS));
      optionDescriptors = descriptors;
    }
    responseObserver.onNext(
        JobApi.DescribePipelineOptionsResponse.newBuilder().addAllOptions(descriptors).build());
    responseObserver.onCompleted();
  }

  /** The job with this id, or null after answering NOT_FOUND. */
  private JobInvocation job(String jobId, StreamObserver<?> responseObserver) {
    JobInvocation job = jobs.get(jobId);
    if (job == null) {
      responseObserver.onError(
          Status.NOT_FOUND
              .withDescription(
                  "unknown job id '"
                      + jobId
                      + "'; GetJobs lists the jobs this server knows (it keeps the last "
                      + retainedFinishedJobs
                      + " finished ones)")
              .asException());
    }
    return job;
  }

  /** The jobs that have not ended yet. */
  List<JobInvocation> runningJobs() {
    return jobs.values().stream().filter(job -> !job.events().ended()).toList();
  }

  /** Drops the preparations that were never run, with their staged artifacts. */
  @Override
  public void close() {
    expiries.shutdownNow();
    for (String preparationId : List.copyOf(preparations.keySet())) {
      JobPreparation preparation = preparations.remove(preparationId);
      if (preparation != null) {
        discardSession(preparation.stagingToken());
      }
    }
  }

  /** The job name as part of an id: letters, digits, '-' and '_' only. */
  private static String idPart(String jobName) {
    String cleaned = jobName.replaceAll("[^A-Za-z0-9_-]", "-");
    return cleaned.length() > 60 ? cleaned.substring(0, 60) : cleaned;
  }
}
