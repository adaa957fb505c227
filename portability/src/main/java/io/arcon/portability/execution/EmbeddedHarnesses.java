package io.arcon.portability.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.fn.harness.Caches;
import org.apache.beam.fn.harness.FnHarness;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.runners.fnexecution.control.ControlClientPool;
import org.apache.beam.runners.fnexecution.control.FnApiControlClientPoolService;
import org.apache.beam.runners.fnexecution.control.InstructionRequestHandler;
import org.apache.beam.runners.fnexecution.environment.EnvironmentFactory;
import org.apache.beam.runners.fnexecution.environment.RemoteEnvironment;
import org.apache.beam.runners.fnexecution.logging.GrpcLoggingService;
import org.apache.beam.runners.fnexecution.provisioning.StaticGrpcProvisionService;
import org.apache.beam.sdk.fn.IdGenerator;
import org.apache.beam.sdk.fn.channel.ManagedChannelFactory;
import org.apache.beam.sdk.fn.server.GrpcFnServer;
import org.apache.beam.sdk.fn.server.InProcessServerFactory;
import org.apache.beam.sdk.fn.server.ServerFactory;
import org.apache.beam.sdk.fn.stream.OutboundObserverFactory;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.BeamUrns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EMBEDDED environment: Beam's Java SDK harness in this JVM, as Beam's {@code
 * EmbeddedEnvironmentFactory} starts it, but with a harness that can be let go before the job's
 * services close ({@link #stopAll}).
 *
 * <p>Beam closes an environment's logging, control and data servers before the environment itself,
 * so at the end of every job the in-process harness saw its logging and data streams cut and logged
 * errors ("Shutting down harness due to exception ... Logging stream terminated unexpectedly",
 * "Failed to handle for url") although nothing went wrong. Ending the control stream first lets the
 * harness close its own streams; the servers close after it has returned.
 */
final class EmbeddedHarnesses implements EnvironmentFactory {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedHarnesses.class);

  /** How long a harness may take to end once its control stream ended. */
  private static final long STOP_WAIT_MILLIS = 5_000;

  private final PipelineOptions options;
  private final GrpcFnServer<GrpcLoggingService> loggingServer;
  private final GrpcFnServer<FnApiControlClientPoolService> controlServer;
  private final ControlClientPool.Source clients;
  private final List<Harness> harnesses = new ArrayList<>();

  private EmbeddedHarnesses(
      PipelineOptions options,
      GrpcFnServer<GrpcLoggingService> loggingServer,
      GrpcFnServer<FnApiControlClientPoolService> controlServer,
      ControlClientPool.Source clients) {
    this.options = options;
    this.loggingServer = loggingServer;
    this.controlServer = controlServer;
    this.clients = clients;
  }

  @Override
  public RemoteEnvironment createEnvironment(RunnerApi.Environment environment, String workerId)
      throws Exception {
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "embedded-sdk-harness-" + workerId);
              t.setDaemon(true);
              return t;
            });
    Future<?> harness =
        executor.submit(
            () -> {
              FnHarness.main(
                  workerId,
                  options,
                  Set.of(
                      BeamUrns.getUrn(
                          RunnerApi.StandardRunnerProtocols.Enum
                              .CONTROL_RESPONSE_ELEMENTS_EMBEDDING)),
                  loggingServer.getApiServiceDescriptor(),
                  controlServer.getApiServiceDescriptor(),
                  null,
                  ManagedChannelFactory.createInProcess(),
                  OutboundObserverFactory.clientDirect(),
                  Caches.fromOptions(options));
              return null;
            });
    executor.shutdown();
    InstructionRequestHandler handler = null;
    while (handler == null) {
      try {
        handler = clients.take(workerId, Duration.ofSeconds(5));
      } catch (TimeoutException e) {
        if (harness.isDone()) {
          // The harness ended before it connected: its failure says why.
          harness.get();
          throw new IllegalStateException("The embedded SDK harness ended before it connected");
        }
        LOG.info("Still waiting for the embedded SDK harness {} to connect", workerId);
      }
    }
    Harness started = new Harness(environment, handler, harness, workerId);
    synchronized (harnesses) {
      harnesses.add(started);
    }
    return started;
  }

  /**
   * Lets every harness go; with {@code wait}, waits (bounded) until each has ended. Without, for a
   * cancel: a harness stuck in user code would hold the job's end for the whole wait.
   */
  void stopAll(boolean wait) {
    List<Harness> all;
    synchronized (harnesses) {
      all = List.copyOf(harnesses);
    }
    for (Harness h : all) {
      h.stop(wait);
    }
  }

  private static final class Harness implements RemoteEnvironment {
    private final RunnerApi.Environment environment;
    private final InstructionRequestHandler handler;
    private final Future<?> harness;
    private final String workerId;

    Harness(
        RunnerApi.Environment environment,
        InstructionRequestHandler handler,
        Future<?> harness,
        String workerId) {
      this.environment = environment;
      this.handler = handler;
      this.harness = harness;
      this.workerId = workerId;
    }

    @Override
    public RunnerApi.Environment getEnvironment() {
      return environment;
    }

    @Override
    public InstructionRequestHandler getInstructionRequestHandler() {
      return handler;
    }

    private boolean stopped;

    /** Ends the control stream and waits for the harness to return; once. */
    @Override
    public void close() {
      stop(true);
    }

    synchronized void stop(boolean wait) {
      if (stopped) {
        return;
      }
      stopped = true;
      try {
        handler.close();
      } catch (Exception e) {
        LOG.debug("Closing the control connection of embedded SDK harness {}", workerId, e);
      }
      if (!wait) {
        return;
      }
      try {
        harness.get(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (TimeoutException e) {
        // A DoFn that does not return (e.g. a cancelled job's): its thread is a daemon.
        LOG.warn(
            "The embedded SDK harness {} did not end within {} ms of its control stream",
            workerId,
            STOP_WAIT_MILLIS);
      } catch (Exception e) {
        LOG.debug("The embedded SDK harness {} ended with an error", workerId, e);
      }
    }
  }

  /** Provides the job's {@link EmbeddedHarnesses}, kept for {@link #stopAll}. */
  static final class Provider implements EnvironmentFactory.Provider {
    private final PipelineOptions options;
    private final List<EmbeddedHarnesses> factories = new ArrayList<>();

    Provider(PipelineOptions options) {
      this.options = options;
    }

    @Override
    public EnvironmentFactory createEnvironmentFactory(
        GrpcFnServer<FnApiControlClientPoolService> controlServer,
        GrpcFnServer<GrpcLoggingService> loggingServer,
        GrpcFnServer<ArtifactRetrievalService> retrievalServer,
        GrpcFnServer<StaticGrpcProvisionService> provisioningServer,
        ControlClientPool clientPool,
        IdGenerator idGenerator) {
      EmbeddedHarnesses factory =
          new EmbeddedHarnesses(options, loggingServer, controlServer, clientPool.getSource());
      synchronized (factories) {
        factories.add(factory);
      }
      return factory;
    }

    @Override
    public ServerFactory getServerFactory() {
      return InProcessServerFactory.create();
    }

    /** Lets the harnesses of every factory provided go (see {@link EmbeddedHarnesses}). */
    void stopAll(boolean wait) {
      List<EmbeddedHarnesses> all;
      synchronized (factories) {
        all = List.copyOf(factories);
      }
      all.forEach(f -> f.stopAll(wait));
    }
  }
}
