package io.arcon.runner.translation;

/**
 * A step of the job that keeps keyed state, named exactly as the state engine, the metrics and the
 * state directories know it.
 *
 * @param fullName the transform's full name (a lifted combine's is the composite's)
 * @param engine the state engine chosen for it by {@code --stateBackend}/{@code --stateBackends}
 * @param kind which kind of transform keeps the state
 */
public record StatefulStep(String fullName, String engine, Kind kind) {

  /** The transforms that keep keyed state. */
  public enum Kind {
    /** A ParDo whose DoFn uses state or timers. */
    STATEFUL_PARDO,
    /** A GroupByKey: buffered values, window triggers and watermark holds. */
    GROUP_BY_KEY,
    /** A Combine.PerKey run as a partial combine plus one keyed merge of accumulators. */
    LIFTED_COMBINE,
    /**
     * A Combine.PerKey under a trigger or merging windows: a GroupByKey that combines each element
     * into its window's accumulator.
     */
    COMBINING_GROUP_BY_KEY,
    /** The process step of a splittable DoFn: restrictions and their watermark holds. */
    SPLITTABLE_PROCESS
  }
}
