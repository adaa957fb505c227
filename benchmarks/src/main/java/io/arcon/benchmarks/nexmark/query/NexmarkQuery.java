package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.values.PCollection;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * One Nexmark query, written twice with the same logic: as a Beam pipeline fragment and as a Flink
 * DataStream job fragment. Both take the event stream with event-time timestamps (and, in Flink,
 * watermarks) and return the query's output records.
 */
public interface NexmarkQuery {

  /** What the query computes, one line. */
  String description();

  /**
   * Whether every runner must produce the same multiset of records. False only for a query whose
   * output depends on processing time (Q12); its runs are compared by {@link
   * NexmarkResult#countedBids()} instead.
   */
  default boolean outputComparable() {
    return true;
  }

  /**
   * Whether an output record's event timestamp is the newest event time that contributed to it (or
   * its window's end), so latency can be measured from it. False for Q12, whose outputs carry the
   * global window's end.
   */
  default boolean latencyMeasurable() {
    return outputComparable();
  }

  PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config);

  DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config);
}
