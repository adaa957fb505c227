package io.arcon.benchmarks.state;

import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * BagState append to and full read of a random key's bag; every key starts with {@link #PRELOADED}
 * elements (appends then grow the bags over the run).
 */
@State(Scope.Thread)
public class BagStateBenchmark extends EngineState {
  static final int PRELOADED = 2;
  private static final StateTag<BagState<Long>> BAG = StateTags.bag("bag", VarLongCoder.of());

  @Override
  void preload(long key) {
    BagState<Long> bag = internals.state(GLOBAL, BAG);
    for (int i = 0; i < PRELOADED; i++) {
      bag.add(key + i);
    }
  }

  @Benchmark
  public void bagAppend() {
    useRandomKey();
    internals.state(GLOBAL, BAG).add(1L);
  }

  @Benchmark
  public void bagRead(Blackhole blackhole) {
    useRandomKey();
    for (Long element : internals.state(GLOBAL, BAG).read()) {
      blackhole.consume(element);
    }
  }
}
