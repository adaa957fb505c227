package io.arcon.benchmarks.state;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.joda.time.Instant;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One backend of {@code engine} behind Beam's state API ({@link BackendStateInternals}), as a
 * stateful operator instance uses it, with {@code keys} keys preloaded by the subclass. Every
 * operation works on a uniformly random key, so at 10M keys the working set is far larger than any
 * cache in front of the engine.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms8g",
      "-Xmx8g",
      // Transparent huge pages for the heap (THP is in madvise mode on the benchmark VM, so the
      // JVM must ask for them) and the whole heap touched up front: at 10M keys every operation
      // is a random access into a large table, and 4 KiB pages make each one a TLB miss too.
      "-XX:+UseTransparentHugePages",
      "-XX:+AlwaysPreTouch"
    })
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@State(Scope.Thread)
public abstract class EngineState {
  static final StateNamespace GLOBAL = StateNamespaces.global();

  @Param({"heap", "rocksdb", "lmdb"})
  public String engine;

  @Param({"100000", "10000000"})
  public long keys;

  BackendStateInternals<Long> internals;
  private StateBackend backend;
  private Path directory;
  private final SplittableRandom random = new SplittableRandom(42);

  @Setup(Level.Trial)
  public void open() throws IOException {
    directory = Files.createTempDirectory("arcon-state-bench-" + engine + "-");
    backend = StateBackends.open(StateBackendConfig.of(engine, directory));
    internals = new BackendStateInternals<>(backend, BigEndianLongCoder.of());
    internals.setEventTime(new Instant(0));
    long start = System.nanoTime();
    for (long key = 0; key < keys; key++) {
      useKey(key);
      preload(key);
    }
    backend.flush();
    System.err.printf(
        "%n[state-bench] %s: preloaded %d keys for %s in %.1f s%n",
        engine, keys, getClass().getSimpleName(), (System.nanoTime() - start) / 1e9);
  }

  /** Writes the initial state of {@code key}, which is current. */
  abstract void preload(long key);

  @TearDown(Level.Trial)
  public void close() {
    backend.dispose();
    try (var files = Files.walk(directory)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // A leftover temp directory does not affect the measurement.
    }
  }

  /** Makes a uniformly random key current, as the runtime does before each element. */
  final void useRandomKey() {
    useKey(random.nextLong(keys));
  }

  final long randomLong() {
    return random.nextLong(keys);
  }

  final int randomInt(int bound) {
    return random.nextInt(bound);
  }

  final void useKey(long key) {
    // BigEndianLongCoder's encoding, without the stream a Coder call allocates.
    byte[] encoded = new byte[8];
    long bits = key;
    for (int i = 7; i >= 0; i--) {
      encoded[i] = (byte) bits;
      bits >>>= 8;
    }
    internals.setKey(key, encoded);
  }
}
