package io.arcon.benchmarks.state;

import io.arcon.state.StateTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The engine alone, without Beam's state API: point get and put of 8-byte values under the same
 * addresses the Beam value benchmark uses. The gap to {@link ValueStateBenchmark} is the cost of
 * the Beam adapter (key switch, cell binding, address building, coders, the updated_at stamp).
 */
@State(Scope.Thread)
public class RawTableBenchmark extends EngineState {
  private static final byte[] VALUE = new byte[8];
  private StateTable table;

  @Override
  void preload(long key) {
    if (table == null) {
      table = internals.backend().table("raw");
    }
    table.put(address(key), VALUE);
  }

  /** A 12-byte big-endian key like an encoded Beam key plus a short suffix. */
  static byte[] address(long key) {
    byte[] address = new byte[12];
    long bits = key;
    for (int i = 7; i >= 0; i--) {
      address[i] = (byte) bits;
      bits >>>= 8;
    }
    address[8] = 'v';
    return address;
  }

  @Benchmark
  public byte[] rawGet() {
    return table.get(address(randomLong()));
  }

  @Benchmark
  public void rawPut() {
    table.put(address(randomLong()), VALUE);
  }
}
