package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A time-sorted DoFn fed by two source instances, one of which stands still: its watermark stays at
 * -infinity until the other has sent everything. Watermark alignment holds the busy instance back
 * while it runs ahead; if it waited for the idle one, neither would ever move. After the idle time
 * it lets the busy one go on, and every element is processed once, in timestamp order.
 */
class TimeSortedIdleSplitPipelineTest {
  private static final int ELEMENTS = 100_000;
  private static final Map<String, CountDownLatch> BUSY_DONE = new ConcurrentHashMap<>();
  private static final Map<String, long[]> RESULTS = new ConcurrentHashMap<>();

  /** Counts elements and timestamps that came out of order, under one key. */
  static final class CountInOrder extends DoFn<KV<String, Long>, Void> {
    private final String run;

    @StateId("last")
    private final StateSpec<ValueState<Long>> lastSpec = StateSpecs.value();

    CountInOrder(String run) {
      this.run = run;
    }

    @RequiresTimeSortedInput
    @ProcessElement
    public void process(ProcessContext c, @StateId("last") ValueState<Long> last) {
      long ts = c.timestamp().getMillis();
      long[] result = RESULTS.computeIfAbsent(run, r -> new long[2]);
      Long previous = last.read();
      synchronized (result) {
        result[0]++;
        if (previous != null && ts < previous) {
          result[1]++;
        }
      }
      last.write(ts);
    }
  }

  @Test
  void anIdleSourceInstanceDoesNotStallTheBusyOne() {
    String run = "idle-split-" + System.nanoTime();
    BUSY_DONE.put(run, new CountDownLatch(1));
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(2);
    Pipeline p = Pipeline.create(options);
    p.apply(Read.from(new OneBusyOneIdle(run, -1)))
        .apply("CountInOrder", ParDo.of(new CountInOrder(run)));
    PipelineResult result = p.run();
    PipelineResult.State state = result.waitUntilFinish(Duration.standardSeconds(60));
    if (state != PipelineResult.State.DONE) {
      try {
        result.cancel();
      } catch (IOException ignored) {
        // the assertion below says what went wrong
      }
    }
    assertEquals(PipelineResult.State.DONE, state, "the pipeline stalled");
    assertEquals(ELEMENTS, RESULTS.get(run)[0], "every element once");
    assertEquals(0, RESULTS.get(run)[1], "in timestamp order");
  }

  /** Split 0 emits the elements at 1 ms apart; split 1 emits nothing and ends only after it. */
  static final class OneBusyOneIdle extends UnboundedSource<KV<String, Long>, NoCheckpoint> {
    private final String run;
    private final int part;

    OneBusyOneIdle(String run, int part) {
      this.run = run;
      this.part = part;
    }

    @Override
    public List<OneBusyOneIdle> split(int desiredNumSplits, PipelineOptions options) {
      return List.of(new OneBusyOneIdle(run, 0), new OneBusyOneIdle(run, 1));
    }

    @Override
    public UnboundedReader<KV<String, Long>> createReader(
        PipelineOptions options, NoCheckpoint checkpointMark) {
      return part == 0 ? new Busy() : new Idle();
    }

    @Override
    public Coder<NoCheckpoint> getCheckpointMarkCoder() {
      return SerializableCoder.of(NoCheckpoint.class);
    }

    @Override
    public Coder<KV<String, Long>> getOutputCoder() {
      return KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
    }

    private abstract class Reader extends UnboundedReader<KV<String, Long>> {
      @Override
      public boolean start() throws IOException {
        return advance();
      }

      @Override
      public CheckpointMark getCheckpointMark() {
        return new NoCheckpoint();
      }

      @Override
      public UnboundedSource<KV<String, Long>, ?> getCurrentSource() {
        return OneBusyOneIdle.this;
      }

      @Override
      public void close() {}
    }

    private final class Busy extends Reader {
      private long next = -1;

      @Override
      public boolean advance() {
        if (next + 1 >= ELEMENTS) {
          next = ELEMENTS;
          BUSY_DONE.get(run).countDown();
          return false;
        }
        next++;
        return true;
      }

      @Override
      public KV<String, Long> getCurrent() {
        if (next < 0 || next >= ELEMENTS) {
          throw new NoSuchElementException();
        }
        return KV.of("k", next);
      }

      @Override
      public Instant getCurrentTimestamp() {
        return new Instant(next);
      }

      @Override
      public Instant getWatermark() {
        return next >= ELEMENTS ? BoundedWindow.TIMESTAMP_MAX_VALUE : new Instant(next);
      }
    }

    private final class Idle extends Reader {
      @Override
      public boolean advance() {
        return false;
      }

      @Override
      public KV<String, Long> getCurrent() {
        throw new NoSuchElementException();
      }

      @Override
      public Instant getCurrentTimestamp() {
        throw new NoSuchElementException();
      }

      @Override
      public Instant getWatermark() {
        return BUSY_DONE.get(run).getCount() == 0
            ? BoundedWindow.TIMESTAMP_MAX_VALUE
            : BoundedWindow.TIMESTAMP_MIN_VALUE;
      }
    }
  }

  /** No position to keep: the test never restarts. */
  static final class NoCheckpoint implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }
}
