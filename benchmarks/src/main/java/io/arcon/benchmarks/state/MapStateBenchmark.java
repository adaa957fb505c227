package io.arcon.benchmarks.state;

import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.MapState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** MapState put and get of a random entry of a random key; every key starts with 4 entries. */
@State(Scope.Thread)
public class MapStateBenchmark extends EngineState {
  static final int PRELOADED = 4;
  private static final StateTag<MapState<Long, Long>> MAP =
      StateTags.map("map", VarLongCoder.of(), VarLongCoder.of());
  private long written;

  @Override
  void preload(long key) {
    MapState<Long, Long> map = internals.state(GLOBAL, MAP);
    for (long i = 0; i < PRELOADED; i++) {
      map.put(i, key);
    }
  }

  @Benchmark
  public void mapPut() {
    useRandomKey();
    internals.state(GLOBAL, MAP).put((long) randomInt(2 * PRELOADED), ++written);
  }

  @Benchmark
  public Long mapGet() {
    useRandomKey();
    return internals.state(GLOBAL, MAP).get((long) randomInt(PRELOADED)).read();
  }
}
