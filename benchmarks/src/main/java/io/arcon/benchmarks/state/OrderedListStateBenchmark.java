package io.arcon.benchmarks.state;

import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.OrderedListState;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * OrderedListState add at a random timestamp and a range read of a random key; every key starts
 * with 4 elements at seconds 0..3, and the range [0 s, 2 s) returns the first two of them.
 */
@State(Scope.Thread)
public class OrderedListStateBenchmark extends EngineState {
  static final int PRELOADED = 4;
  private static final StateTag<OrderedListState<Long>> LIST =
      StateTags.orderedList("list", VarLongCoder.of());
  private static final Instant RANGE_START = new Instant(0);
  private static final Instant RANGE_END = new Instant(2_000);

  @Override
  void preload(long key) {
    OrderedListState<Long> list = internals.state(GLOBAL, LIST);
    for (int i = 0; i < PRELOADED; i++) {
      list.add(TimestampedValue.of(key, new Instant(i * 1_000L)));
    }
  }

  @Benchmark
  public void orderedListAdd() {
    useRandomKey();
    // After the preloaded range, so range reads keep returning the same two elements.
    internals
        .state(GLOBAL, LIST)
        .add(TimestampedValue.of(1L, new Instant(10_000L + randomInt(1_000_000))));
  }

  @Benchmark
  public void orderedListRange(Blackhole blackhole) {
    useRandomKey();
    for (TimestampedValue<Long> element :
        internals.state(GLOBAL, LIST).readRange(RANGE_START, RANGE_END)) {
      blackhole.consume(element);
    }
  }
}
