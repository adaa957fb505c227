package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.ConfigurationList;
import java.util.List;

/** Where a query runs. */
public enum RunnerKind {
  ARCON("arcon", "ArconRunner"),
  DIRECT("direct", "DirectRunner (no immutability/encodability checks)"),
  FLINK("flink", "Flink DataStream");

  final String flag;
  public final String label;

  RunnerKind(String flag, String label) {
    this.flag = flag;
    this.label = label;
  }

  /** The runners {@code text} names ("arcon,direct,flink"), in its order. */
  public static List<RunnerKind> parseList(String text) {
    return ConfigurationList.parseNonEmpty(
        "--runners", text, values(), r -> r.flag, " (in --runners)");
  }
}
