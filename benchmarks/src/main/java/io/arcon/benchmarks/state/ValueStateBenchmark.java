package io.arcon.benchmarks.state;

import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.ValueState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** ValueState read and write of a random key; every key holds one value. */
@State(Scope.Thread)
public class ValueStateBenchmark extends EngineState {
  private static final StateTag<ValueState<Long>> VALUE =
      StateTags.value("value", VarLongCoder.of());
  private long written;

  @Override
  void preload(long key) {
    internals.state(GLOBAL, VALUE).write(key);
  }

  @Benchmark
  public Long valueGet() {
    useRandomKey();
    return internals.state(GLOBAL, VALUE).read();
  }

  @Benchmark
  public void valueUpdate() {
    useRandomKey();
    internals.state(GLOBAL, VALUE).write(++written);
  }
}
