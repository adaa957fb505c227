package io.arcon.benchmarks.epochs;

import io.arcon.benchmarks.ConfigurationList;
import io.arcon.state.StateBackends;
import java.util.ArrayList;
import java.util.List;

/**
 * One measured pair: a pipeline on a state backend, run with epochs off and on. Named {@code
 * <pipeline>-<backend>}, e.g. {@code keyed-count-rocksdb}.
 */
record ThroughputConfiguration(MeasuredPipeline pipeline, String backend) {

  /** Every pipeline on every engine, pipeline by pipeline. */
  static final ThroughputConfiguration[] ALL = all();

  String name() {
    return pipeline.name + "-" + backend;
  }

  String label() {
    return pipeline.label + ", " + backend;
  }

  static List<ThroughputConfiguration> parseList(String names) {
    return ConfigurationList.parseNonEmpty(
        "--configurations", names, ALL, ThroughputConfiguration::name, "");
  }

  private static ThroughputConfiguration[] all() {
    List<ThroughputConfiguration> all = new ArrayList<>();
    for (MeasuredPipeline pipeline : MeasuredPipeline.values()) {
      for (String engine : StateBackends.ENGINES) {
        all.add(new ThroughputConfiguration(pipeline, engine));
      }
    }
    return all.toArray(ThroughputConfiguration[]::new);
  }
}
