package io.arcon.portability.execution;

import java.util.Map;
import java.util.Set;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.model.pipeline.v1.RunnerApi.StandardEnvironments;
import org.apache.beam.runners.fnexecution.environment.EmbeddedEnvironmentFactory;
import org.apache.beam.runners.fnexecution.environment.EnvironmentFactory;
import org.apache.beam.runners.fnexecution.environment.ExternalEnvironmentFactory;
import org.apache.beam.runners.fnexecution.environment.ProcessEnvironmentFactory;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.BeamUrns;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;

/**
 * The SDK harness environments ArconRunner starts: EMBEDDED (the Java SDK harness in this JVM),
 * EXTERNAL (a worker pool the client runs, which the SDKs' LOOPBACK mode uses) and PROCESS (a
 * command this machine runs). DOCKER is refused: the runner does not start containers.
 */
final class Environments {
  static final String EMBEDDED =
      org.apache.beam.sdk.util.construction.Environments.ENVIRONMENT_EMBEDDED;
  static final String EXTERNAL = BeamUrns.getUrn(StandardEnvironments.Environments.EXTERNAL);
  static final String PROCESS = BeamUrns.getUrn(StandardEnvironments.Environments.PROCESS);
  static final String DOCKER = BeamUrns.getUrn(StandardEnvironments.Environments.DOCKER);
  static final Set<String> SUPPORTED = Set.of(EMBEDDED, EXTERNAL, PROCESS);

  private Environments() {}

  /** The factories of the supported environments, for Beam's job bundle factory. */
  static Map<String, EnvironmentFactory.Provider> providers(PipelineOptions options) {
    return Map.of(
        EMBEDDED, new EmbeddedEnvironmentFactory.Provider(options),
        EXTERNAL, new ExternalEnvironmentFactory.Provider(),
        PROCESS, new ProcessEnvironmentFactory.Provider(options));
  }

  /**
   * @throws IllegalArgumentException when {@code stage} runs in an environment the runner does not
   *     start
   */
  static void check(ExecutableStage stage) {
    RunnerApi.Environment environment = stage.getEnvironment();
    String urn = environment.getUrn();
    if (SUPPORTED.contains(urn)) {
      return;
    }
    String transforms =
        stage.getTransforms().stream().map(t -> t.getId()).sorted().toList().toString();
    if (DOCKER.equals(urn)) {
      throw new IllegalArgumentException(
          "Transforms "
              + transforms
              + " run in a DOCKER environment, which ArconRunner does not start. Submit with"
              + " --environment_type=LOOPBACK (the SDK serves its own workers), EXTERNAL with a"
              + " worker pool address, or PROCESS with a boot command; Java pipelines may use"
              + " EMBEDDED.");
    }
    throw new IllegalArgumentException(
        "Transforms "
            + transforms
            + " run in environment '"
            + urn
            + "', which ArconRunner does not know. Supported: "
            + SUPPORTED.stream().sorted().toList()
            + ".");
  }
}
