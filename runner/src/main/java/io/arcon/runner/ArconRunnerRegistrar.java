package io.arcon.runner;

import com.google.auto.service.AutoService;
import java.util.List;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;
import org.apache.beam.sdk.runners.PipelineRunnerRegistrar;

/** Registers {@link ArconRunner} so that {@code --runner=ArconRunner} works. */
public final class ArconRunnerRegistrar {
  private ArconRunnerRegistrar() {}

  /** Runner registration. */
  @AutoService(PipelineRunnerRegistrar.class)
  public static final class Runner implements PipelineRunnerRegistrar {
    @Override
    public Iterable<Class<? extends PipelineRunner<?>>> getPipelineRunners() {
      return List.of(ArconRunner.class, TestArconRunner.class);
    }
  }

  /** Options registration. */
  @AutoService(PipelineOptionsRegistrar.class)
  public static final class Options implements PipelineOptionsRegistrar {
    @Override
    public Iterable<Class<? extends PipelineOptions>> getPipelineOptions() {
      return List.of(ArconPipelineOptions.class);
    }
  }
}
