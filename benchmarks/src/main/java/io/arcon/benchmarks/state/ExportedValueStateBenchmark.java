package io.arcon.benchmarks.state;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.history.StateHistory;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.snapshot.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Instant;
import org.openjdk.jmh.annotations.Benchmark;
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
 * What an exactly exported state ({@code --tssExport}) costs per write, without the pipeline around
 * it: a per-key counter's read and write of a random key of {@code keys}, one millisecond of event
 * time per write, with {@code history} {@code off} (the state alone) or {@code exact} (every write
 * also recorded into the state's version chains, flushed as the write buffer fills and pruned to
 * one hour of history every eighth of it, as {@code InstanceExport} does). The difference of the
 * two is the history's cost per write; the pipeline figure ({@code TssExportBenchmark}) adds the
 * sort of the input by event time and the runtime around it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@State(Scope.Thread)
public class ExportedValueStateBenchmark {
  private static final StateNamespace GLOBAL = StateNamespaces.global();
  private static final String ID = "count";
  private static final StateTag<ValueState<Long>> COUNT = StateTags.value(ID, VarLongCoder.of());
  private static final long HISTORY_MILLIS = 3_600_000L;
  private static final long PRUNE_STEP_MILLIS = HISTORY_MILLIS / 8;

  @Param({"heap", "lmdb"})
  public String engine;

  @Param({"10000"})
  public int keys;

  @Param({"off", "exact"})
  public String history;

  private BackendStateInternals<Long> internals;
  private StateBackend backend;
  private Path directory;
  private StateHistory chains;
  private byte[][] encodedKeys;
  private final SplittableRandom random = new SplittableRandom(42);
  private long eventTime;
  private long prunedTo = Long.MIN_VALUE;

  @Setup(Level.Trial)
  public void open() throws IOException {
    directory = Files.createTempDirectory("arcon-export-bench-" + engine + "-");
    backend = StateBackends.open(StateBackendConfig.of(engine, directory));
    internals = new BackendStateInternals<>(backend, BigEndianLongCoder.of());
    if (history.equals("exact")) {
      chains =
          internals.enableHistory(
              Map.of(ID, StateSpecs.value(VarLongCoder.of())),
              Map.of(ID, true),
              () -> eventTime,
              PRUNE_STEP_MILLIS);
    } else if (!history.equals("off")) {
      throw new IllegalArgumentException("history must be off or exact; got " + history);
    }
    encodedKeys = new byte[keys][];
    for (int key = 0; key < keys; key++) {
      encodedKeys[key] = CoderUtils.encodeToByteArray(BigEndianLongCoder.of(), (long) key);
    }
  }

  @Benchmark
  public Long countOne() {
    int key = random.nextInt(keys);
    internals.setKey((long) key, encodedKeys[key]);
    internals.setEventTime(new Instant(++eventTime));
    ValueState<Long> count = internals.state(GLOBAL, COUNT);
    Long before = count.read();
    long after = before == null ? 1 : before + 1;
    count.write(after);
    if (chains != null && (eventTime & 4095) == 0) {
      prune();
    }
    return after;
  }

  /** The horizon one hour back, on a step boundary, once per step, as InstanceExport prunes. */
  private void prune() {
    long horizon = eventTime - HISTORY_MILLIS;
    horizon -= Math.floorMod(horizon, PRUNE_STEP_MILLIS);
    if (horizon > 0 && (prunedTo == Long.MIN_VALUE || horizon - prunedTo >= PRUNE_STEP_MILLIS)) {
      chains.prune(horizon);
      prunedTo = horizon;
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    backend.dispose();
    FileTrees.deleteRecursively(directory);
  }
}
