package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.BidsPerSession;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.time.Duration;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Q11, user sessions: the number of bids in each bidder's session (event-time session windows). A
 * session ends when a bidder makes no bid for the gap; Beam merges two bids' windows {@code [t, t +
 * gap)} only when they overlap, Flink also when they touch, so the Flink job uses windows one
 * millisecond shorter and reports their end one millisecond later: the same sessions, the same
 * output.
 */
public final class Query11 implements NexmarkQuery {

  @Override
  public String description() {
    return "user sessions: bids per bidder session window";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return BeamEvents.bids(events)
        .apply("Bidder", MapElements.into(TypeDescriptors.longs()).via(Bid::bidder))
        .apply(
            "Sessions",
            Window.into(
                Sessions.withGapDuration(org.joda.time.Duration.millis(config.sessionGapMillis()))))
        .apply("BidsPerSession", Count.perElement())
        .apply("ToBidsPerSession", ParDo.of(new ToBidsPerSession()));
  }

  private static final class ToBidsPerSession extends DoFn<KV<Long, Long>, BidsPerSession> {
    @ProcessElement
    public void process(
        @Element KV<Long, Long> count, IntervalWindow session, OutputReceiver<BidsPerSession> out) {
      out.output(new BidsPerSession(count.getKey(), session.end().getMillis(), count.getValue()));
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .keyBy(Bid::bidder, Types.LONG)
        .window(EventTimeSessionWindows.withGap(Duration.ofMillis(config.sessionGapMillis() - 1)))
        .aggregate(new FlinkAggregates.Count<>(), new FlinkBidsPerSession())
        .returns(TypeInformation.of(BidsPerSession.class))
        .name("BidsPerSession");
  }

  private static final class FlinkBidsPerSession
      extends ProcessWindowFunction<Long, BidsPerSession, Long, TimeWindow> {
    @Override
    public void process(
        Long bidder, Context ctx, Iterable<Long> counts, Collector<BidsPerSession> out) {
      for (Long count : counts) {
        out.collect(new BidsPerSession(bidder, ctx.window().getEnd() + 1, count));
      }
    }
  }
}
