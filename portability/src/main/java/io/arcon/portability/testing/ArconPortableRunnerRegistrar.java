package io.arcon.portability.testing;

import com.google.auto.service.AutoService;
import java.util.List;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.runners.PipelineRunnerRegistrar;

/**
 * Registers {@link ArconPortableRunner} and {@link TestArconPortableRunner}, so that {@code
 * --runner=ArconPortableRunner} works. Their options ({@code --jobEndpoint}, {@code
 * --defaultEnvironmentType}) are Beam's {@code PortablePipelineOptions}, which the SDK registers.
 */
@AutoService(PipelineRunnerRegistrar.class)
public final class ArconPortableRunnerRegistrar implements PipelineRunnerRegistrar {
  @Override
  public Iterable<Class<? extends PipelineRunner<?>>> getPipelineRunners() {
    return List.of(ArconPortableRunner.class, TestArconPortableRunner.class);
  }
}
