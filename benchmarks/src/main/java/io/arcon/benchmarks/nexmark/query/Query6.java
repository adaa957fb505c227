package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.AuctionBid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.model.SellerPrice;
import io.arcon.benchmarks.nexmark.query.winningbids.FlinkWinningBids;
import io.arcon.benchmarks.nexmark.query.winningbids.WinningBids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.joda.time.Instant;

/**
 * Q6, average selling price by seller: the winning bids of closed auctions (WinningBids), then for
 * every won auction the average winning price of its seller's last {@value
 * QueryConfig#SELLER_HISTORY} won auctions. "Last" is by closing time (then auction id), not by
 * arrival, so every runner gives the same averages: a seller's winning bids wait in keyed state for
 * an event-time timer at their closing time and are applied in that order.
 */
public final class Query6 implements NexmarkQuery {

  @Override
  public String description() {
    return "average winning price of each seller's last 10 won auctions, per won auction";
  }

  /** When a winning bid's auction closed: the event time WinningBids gives it. */
  static long closedAt(AuctionBid winner) {
    return winner.auction().expires() - 1;
  }

  private static final Comparator<AuctionBid> CLOSING_ORDER =
      Comparator.comparingLong(Query6::closedAt).thenComparingLong(w -> w.auction().id());

  /**
   * Applies {@code closed} (all of one seller) to the seller's {@code recent} winning prices, in
   * closing order, and returns one average per auction.
   */
  static List<SellerPrice> applyClosed(List<Long> recent, List<AuctionBid> closed) {
    closed.sort(CLOSING_ORDER);
    List<SellerPrice> averages = new ArrayList<>(closed.size());
    for (AuctionBid w : closed) {
      recent.add(w.bid().price());
      if (recent.size() > QueryConfig.SELLER_HISTORY) {
        recent.remove(0);
      }
      long sum = 0;
      for (long price : recent) {
        sum += price;
      }
      averages.add(new SellerPrice(w.auction().seller(), w.auction().id(), sum / recent.size()));
    }
    return averages;
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return events
        .apply("WinningBids", new WinningBids(config.maxAuctionDurationMillis()))
        .apply("IntoGlobalWindow", Window.into(new GlobalWindows()))
        .apply(
            "BySeller",
            WithKeys.of((AuctionBid w) -> w.auction().seller())
                .withKeyType(TypeDescriptors.longs()))
        .apply("SellerAverages", ParDo.of(new SellerAverages()));
  }

  /** Keyed by seller: winning bids not yet applied, the last prices and the pending timer. */
  private static final class SellerAverages extends DoFn<KV<Long, AuctionBid>, SellerPrice> {
    @StateId("pending")
    private final StateSpec<BagState<AuctionBid>> pendingSpec =
        StateSpecs.bag(AuctionBid.AuctionBidCoder.of());

    @StateId("recent")
    private final StateSpec<ValueState<List<Long>>> recentSpec =
        StateSpecs.value(ListCoder.of(VarLongCoder.of()));

    @StateId("flushAt")
    private final StateSpec<ValueState<Long>> flushAtSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("flush")
    private final TimerSpec flushSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<Long, AuctionBid> element,
        @StateId("pending") BagState<AuctionBid> pending,
        @StateId("flushAt") ValueState<Long> flushAt,
        @TimerId("flush") Timer flush) {
      pending.add(element.getValue());
      long closed = closedAt(element.getValue());
      Long at = flushAt.read();
      if (at == null || closed < at) {
        flush.set(new Instant(closed));
        flushAt.write(closed);
      }
    }

    @OnTimer("flush")
    public void onFlush(
        OnTimerContext context,
        @StateId("pending") BagState<AuctionBid> pending,
        @StateId("recent") ValueState<List<Long>> recentState,
        @StateId("flushAt") ValueState<Long> flushAt,
        @TimerId("flush") Timer flush,
        OutputReceiver<SellerPrice> out) {
      long now = context.fireTimestamp().getMillis();
      List<AuctionBid> ready = new ArrayList<>();
      List<AuctionBid> later = new ArrayList<>();
      for (AuctionBid w : pending.read()) {
        (closedAt(w) <= now ? ready : later).add(w);
      }
      List<Long> stored = recentState.read();
      List<Long> recent = stored == null ? new ArrayList<>() : new ArrayList<>(stored);
      for (SellerPrice average : applyClosed(recent, ready)) {
        out.output(average);
      }
      recentState.write(recent);
      pending.clear();
      if (later.isEmpty()) {
        flushAt.clear();
        return;
      }
      long next = Long.MAX_VALUE;
      for (AuctionBid w : later) {
        pending.add(w);
        next = Math.min(next, closedAt(w));
      }
      flush.set(new Instant(next));
      flushAt.write(next);
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkWinningBids.of(
            FlinkEvents.auctions(events),
            FlinkEvents.bids(events),
            config.maxAuctionDurationMillis())
        .keyBy(w -> w.auction().seller(), Types.LONG)
        .process(new FlinkSellerAverages())
        .returns(TypeInformation.of(SellerPrice.class))
        .name("SellerAverages");
  }

  /** The same in Flink: a timer per closing time, which Flink keeps once per key and time. */
  private static final class FlinkSellerAverages
      extends KeyedProcessFunction<Long, AuctionBid, SellerPrice> {
    private transient ListState<AuctionBid> pending;
    private transient ListState<Long> recent;

    @Override
    public void open(OpenContext openContext) {
      pending =
          getRuntimeContext()
              .getListState(
                  new ListStateDescriptor<>("pending", TypeInformation.of(AuctionBid.class)));
      recent = getRuntimeContext().getListState(new ListStateDescriptor<>("recent", Types.LONG));
    }

    @Override
    public void processElement(AuctionBid winner, Context ctx, Collector<SellerPrice> out)
        throws Exception {
      pending.add(winner);
      ctx.timerService().registerEventTimeTimer(closedAt(winner));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SellerPrice> out)
        throws Exception {
      List<AuctionBid> ready = new ArrayList<>();
      List<AuctionBid> later = new ArrayList<>();
      for (AuctionBid w : pending.get()) {
        (closedAt(w) <= timestamp ? ready : later).add(w);
      }
      List<Long> prices = new ArrayList<>();
      recent.get().forEach(prices::add);
      for (SellerPrice average : applyClosed(prices, ready)) {
        out.collect(average);
      }
      recent.update(prices);
      pending.update(later);
    }
  }
}
