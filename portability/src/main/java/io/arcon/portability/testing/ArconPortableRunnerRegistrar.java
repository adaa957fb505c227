package io.arcon.portability.testing;

import com.google.auto.service.AutoService;
import java.util.List;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;
import org.apache.beam.sdk.runners.PipelineRunnerRegistrar;

/**
 * Registers {@link ArconPortableRunner} and {@link TestArconPortableRunner}, so that {@code
 * --runner=ArconPortableRunner} works. Their options ({@code --jobEndpoint}, {@code
 * --defaultEnvironmentType}) are Beam's {@code PortablePipelineOptions}, which the SDK registers,
 * and {@link ArconPortableRunnerOptions} ({@code --jobServerToken}), registered by {@link Options}.
 */
@AutoService(PipelineRunnerRegistrar.class)
public final class ArconPortableRunnerRegistrar implements PipelineRunnerRegistrar {
  @Override
  public Iterable<Class<? extends PipelineRunner<?>>> getPipelineRunners() {
    return List.of(ArconPortableRunner.class, TestArconPortableRunner.class);
  }

  /** Registers {@link ArconPortableRunnerOptions}, so that {@code --jobServerToken} parses. */
  @AutoService(PipelineOptionsRegistrar.class)
  public static final class Options implements PipelineOptionsRegistrar {
    @Override
    public Iterable<Class<? extends PipelineOptions>> getPipelineOptions() {
      return List.of(ArconPortableRunnerOptions.class);
    }
  }
}
