package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.AuctionBid;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Small Flink aggregate functions the queries share. */
final class FlinkAggregates {
  private FlinkAggregates() {}

  /** Counts its inputs. */
  static final class Count<T> implements AggregateFunction<T, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(T value, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /** The accumulator of {@link AverageWinningPrice}: a Flink POJO, so it needs no Kryo. */
  public static final class SumCount {
    public long sum;
    public long count;
  }

  /**
   * The average winning price, as Beam's {@code Mean} computes it: the exact sum divided once by
   * the count.
   */
  static final class AverageWinningPrice
      implements AggregateFunction<AuctionBid, SumCount, Double> {
    @Override
    public SumCount createAccumulator() {
      return new SumCount();
    }

    @Override
    public SumCount add(AuctionBid winner, SumCount acc) {
      acc.sum += winner.bid().price();
      acc.count++;
      return acc;
    }

    @Override
    public Double getResult(SumCount acc) {
      return (double) acc.sum / acc.count;
    }

    @Override
    public SumCount merge(SumCount a, SumCount b) {
      a.sum += b.sum;
      a.count += b.count;
      return a;
    }
  }
}
