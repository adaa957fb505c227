package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.IdNameReserve;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.model.Person;
import java.time.Duration;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * Q8, monitor new users: persons who registered and opened an auction in the same fixed window, as
 * (person id, name, the auction's reserve): a windowed join of persons and auctions by seller.
 */
public final class Query8 implements NexmarkQuery {
  private static final TupleTag<Person> PERSONS = new TupleTag<>() {};
  private static final TupleTag<Auction> AUCTIONS = new TupleTag<>() {};

  @Override
  public String description() {
    return "monitor new users: windowed join of new persons with their new auctions";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    Window<Person> personWindows =
        Window.into(FixedWindows.of(org.joda.time.Duration.millis(config.windowSizeMillis())));
    Window<Auction> auctionWindows =
        Window.into(FixedWindows.of(org.joda.time.Duration.millis(config.windowSizeMillis())));
    PCollection<KV<Long, Person>> persons =
        BeamEvents.persons(events)
            .apply("PersonWindows", personWindows)
            .apply("ById", WithKeys.of(Person::id).withKeyType(TypeDescriptors.longs()));
    PCollection<KV<Long, Auction>> auctions =
        BeamEvents.auctions(events)
            .apply("AuctionWindows", auctionWindows)
            .apply("BySeller", WithKeys.of(Auction::seller).withKeyType(TypeDescriptors.longs()));
    return KeyedPCollectionTuple.of(PERSONS, persons)
        .and(AUCTIONS, auctions)
        .apply("JoinBySeller", CoGroupByKey.create())
        .apply("ToIdNameReserve", ParDo.of(new Pairs()));
  }

  private static final class Pairs extends DoFn<KV<Long, CoGbkResult>, IdNameReserve> {
    @ProcessElement
    public void process(@Element KV<Long, CoGbkResult> group, OutputReceiver<IdNameReserve> out) {
      for (Person p : group.getValue().getAll(PERSONS)) {
        for (Auction a : group.getValue().getAll(AUCTIONS)) {
          out.output(new IdNameReserve(p.id(), p.name(), a.reserve()));
        }
      }
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.persons(events)
        .join(FlinkEvents.auctions(events))
        .where(Person::id, Types.LONG)
        .equalTo(Auction::seller)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(config.windowSizeMillis())))
        .apply(
            (Person p, Auction a) -> new IdNameReserve(p.id(), p.name(), a.reserve()),
            TypeInformation.of(IdNameReserve.class))
        .name("JoinBySeller");
  }
}
