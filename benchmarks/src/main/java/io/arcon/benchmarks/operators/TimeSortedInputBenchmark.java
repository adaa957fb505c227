package io.arcon.benchmarks.operators;

import io.arcon.runner.operators.TimeSortedInput;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The heap sort buffer of a time-sorted (or {@code --tssExport}ed) DoFn: elements one millisecond
 * of event time apart, each late by a pseudo-random lag below {@code disorderMillis}, added one by
 * one, with everything below the watermark ({@code watermarkLagMillis} behind the last element)
 * released every 256 elements, as a source's polls advance it. Reports nanoseconds per element
 * added and released; the elements are built once, so only the buffer is measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimeSortedInputBenchmark {
  private static final int ELEMENTS = 1 << 20;
  private static final long BASE_MILLIS = 1_700_000_000_000L;

  @Param({"200", "20000"})
  public int disorderMillis;

  private WindowedValue<KV<Long, Long>>[] elements;
  private final byte[] key = {1};

  @Setup(Level.Trial)
  @SuppressWarnings("unchecked")
  public void build() {
    elements = new WindowedValue[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      long lag = ((i * 2654435761L) >>> 7) % disorderMillis;
      elements[i] =
          WindowedValues.timestampedValueInGlobalWindow(
              KV.of((long) (i % 10_000), 1L), new Instant(BASE_MILLIS + i - lag));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ELEMENTS)
  public void addAndRelease(Blackhole out) throws Exception {
    // A new buffer per invocation, so the same elements can be added again.
    TimeSortedInput<KV<Long, Long>> buffer = TimeSortedInput.forEngine("heap", null, null, null);
    TimeSortedInput.Release<KV<Long, Long>> release = (k, e) -> out.consume(e);
    long watermarkLag = disorderMillis + 300L;
    for (int i = 0; i < ELEMENTS; i++) {
      buffer.add(key, elements[i]);
      if ((i & 255) == 255) {
        buffer.releaseBefore(BASE_MILLIS + i - watermarkLag, release);
      }
    }
    buffer.releaseBefore(Long.MAX_VALUE, release);
  }
}
