package io.arcon.runtime.job;

import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Small operators for runtime tests: plain longs as elements, no Beam. */
final class TestOperators {
  private TestOperators() {}

  /** Emits {@code from..to-1} on instance 0 with watermark = last emitted value. */
  static final class RangeSource implements SourceOperator {
    private final long from;
    private final long to;
    private final AtomicLong emitted;
    private OperatorContext ctx;
    private long next;
    private boolean active;

    private final long sleepPerPollMillis;
    private final AtomicLong publishedWatermark;

    RangeSource(long from, long to, AtomicLong emitted) {
      this(from, to, emitted, 0, new AtomicLong());
    }

    RangeSource(
        long from, long to, AtomicLong emitted, long sleepPerPollMillis, AtomicLong watermark) {
      this.from = from;
      this.to = to;
      this.emitted = emitted;
      this.sleepPerPollMillis = sleepPerPollMillis;
      this.publishedWatermark = watermark;
    }

    @Override
    public void open(OperatorContext context) {
      this.ctx = context;
      this.next = from;
      this.active = context.instanceIndex() == 0;
    }

    @Override
    public PollResult poll(int maxElements) throws InterruptedException {
      if (!active) {
        return PollResult.DONE;
      }
      if (sleepPerPollMillis > 0) {
        Thread.sleep(sleepPerPollMillis);
      }
      for (int i = 0; i < maxElements && next < to; i++) {
        ctx.output().emit(0, next++);
        emitted.incrementAndGet();
      }
      publishedWatermark.set(currentWatermark());
      return next < to ? PollResult.MORE : PollResult.DONE;
    }

    @Override
    public long currentWatermark() {
      return !active || next >= to ? Long.MAX_VALUE : next - 1;
    }
  }

  /** Never ends; emits a value per poll. */
  static class EndlessSource implements SourceOperator {
    private OperatorContext ctx;
    private long next;

    @Override
    public void open(OperatorContext context) {
      this.ctx = context;
    }

    @Override
    public PollResult poll(int maxElements) {
      ctx.output().emit(0, next++);
      return PollResult.MORE;
    }

    @Override
    public long currentWatermark() {
      return next;
    }
  }

  /** Sums what it receives per instance and records watermarks it saw. */
  static final class SumSink implements Operator {
    static final ConcurrentHashMap<String, AtomicLong> SUMS = new ConcurrentHashMap<>();
    static final CopyOnWriteArrayList<Long> WATERMARKS = new CopyOnWriteArrayList<>();
    private final String name;
    private final long sleepEveryElementsMillis;
    private final AtomicLong consumed;
    private final AtomicLong emittedBySource;
    private final List<Long> lagSamples;

    SumSink(
        String name,
        long sleepMillis,
        AtomicLong consumed,
        AtomicLong emittedBySource,
        List<Long> lagSamples) {
      this.name = name;
      this.sleepEveryElementsMillis = sleepMillis;
      this.consumed = consumed;
      this.emittedBySource = emittedBySource;
      this.lagSamples = lagSamples;
    }

    @Override
    public void open(OperatorContext context) {}

    @Override
    public void processElement(int port, Object element) throws Exception {
      SUMS.computeIfAbsent(name, k -> new AtomicLong()).addAndGet((Long) element);
      long c = consumed.incrementAndGet();
      if (sleepEveryElementsMillis > 0 && c % 512 == 0) {
        lagSamples.add(emittedBySource.get() - c);
        Thread.sleep(sleepEveryElementsMillis);
      }
    }

    @Override
    public void advanceWatermark(long watermark) {
      WATERMARKS.add(watermark);
    }
  }

  /** Throws on the n-th element. */
  static final class FailingOperator implements Operator {
    private final long failAt;
    private long seen;

    FailingOperator(long failAt) {
      this.failAt = failAt;
    }

    @Override
    public void open(OperatorContext context) {}

    @Override
    public void processElement(int port, Object element) {
      if (++seen == failAt) {
        throw new IllegalStateException("boom at element " + failAt);
      }
    }
  }
}
