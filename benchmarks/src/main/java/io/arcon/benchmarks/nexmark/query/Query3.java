package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NameCityStateId;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.model.Person;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Q3, local item suggestion: for every auction in category {@value QueryConfig#LOCAL_CATEGORY}
 * whose seller lives in OR, ID or CA, the seller's name, city and state and the auction id. An
 * incremental join on keyed state, in the global window: a seller's person is kept, and auctions
 * that arrive before their seller (possible when sources run in parallel) wait for it.
 */
public final class Query3 implements NexmarkQuery {

  @Override
  public String description() {
    return "local item suggestion: join sellers in OR/ID/CA with their category-10 auctions";
  }

  public static boolean localPerson(Person p) {
    return QueryConfig.LOCAL_STATES.contains(p.state());
  }

  public static boolean localAuction(Auction a) {
    return a.category() == QueryConfig.LOCAL_CATEGORY;
  }

  static NameCityStateId joined(Person p, Auction a) {
    return new NameCityStateId(p.name(), p.city(), p.state(), a.id());
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    KvCoder<Long, Event> coder = KvCoder.of(VarLongCoder.of(), Event.EventCoder.of());
    PCollection<KV<Long, Event>> persons =
        events.apply("LocalPersonsById", ParDo.of(new LocalPersonsById())).setCoder(coder);
    PCollection<KV<Long, Event>> auctions =
        events
            .apply("LocalAuctionsBySeller", ParDo.of(new LocalAuctionsBySeller()))
            .setCoder(coder);
    return PCollectionList.of(persons)
        .and(auctions)
        .apply("PersonsAndAuctions", Flatten.pCollections())
        .apply("JoinSellerAuctions", ParDo.of(new JoinSellerAuctions()));
  }

  private static final class LocalPersonsById extends DoFn<Event, KV<Long, Event>> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<KV<Long, Event>> out) {
      if (e.newPerson() != null && localPerson(e.newPerson())) {
        out.output(KV.of(e.newPerson().id(), e));
      }
    }
  }

  private static final class LocalAuctionsBySeller extends DoFn<Event, KV<Long, Event>> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<KV<Long, Event>> out) {
      if (e.newAuction() != null && localAuction(e.newAuction())) {
        out.output(KV.of(e.newAuction().seller(), e));
      }
    }
  }

  /** Keyed by person id: the person once seen, and the auctions waiting for it. */
  private static final class JoinSellerAuctions extends DoFn<KV<Long, Event>, NameCityStateId> {
    @StateId("person")
    private final StateSpec<ValueState<Person>> personSpec =
        StateSpecs.value(Person.PersonCoder.of());

    @StateId("waiting")
    private final StateSpec<BagState<Auction>> waitingSpec =
        StateSpecs.bag(Auction.AuctionCoder.of());

    @ProcessElement
    public void process(
        @Element KV<Long, Event> element,
        @StateId("person") ValueState<Person> personState,
        @StateId("waiting") BagState<Auction> waiting,
        OutputReceiver<NameCityStateId> out) {
      Event e = element.getValue();
      if (e.newPerson() != null) {
        Person person = e.newPerson();
        personState.write(person);
        for (Auction a : waiting.read()) {
          out.output(joined(person, a));
        }
        waiting.clear();
        return;
      }
      Person person = personState.read();
      if (person != null) {
        out.output(joined(person, e.newAuction()));
      } else {
        waiting.add(e.newAuction());
      }
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    DataStream<Person> persons = FlinkEvents.persons(events).filter(Query3::localPerson);
    DataStream<Auction> auctions = FlinkEvents.auctions(events).filter(Query3::localAuction);
    return persons
        .keyBy(Person::id, Types.LONG)
        .connect(auctions.keyBy(Auction::seller, Types.LONG))
        .process(new FlinkJoin())
        .returns(TypeInformation.of(NameCityStateId.class))
        .name("JoinSellerAuctions");
  }

  /** The same join as a Flink keyed co-process function over keyed value and list state. */
  private static final class FlinkJoin
      extends KeyedCoProcessFunction<Long, Person, Auction, NameCityStateId> {
    private transient org.apache.flink.api.common.state.ValueState<Person> person;
    private transient ListState<Auction> waiting;

    @Override
    public void open(OpenContext openContext) {
      person =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("person", TypeInformation.of(Person.class)));
      waiting =
          getRuntimeContext()
              .getListState(
                  new ListStateDescriptor<>("waiting", TypeInformation.of(Auction.class)));
    }

    @Override
    public void processElement1(Person p, Context ctx, Collector<NameCityStateId> out)
        throws Exception {
      person.update(p);
      for (Auction a : waiting.get()) {
        out.collect(joined(p, a));
      }
      waiting.clear();
    }

    @Override
    public void processElement2(Auction a, Context ctx, Collector<NameCityStateId> out)
        throws Exception {
      Person p = person.value();
      if (p != null) {
        out.collect(joined(p, a));
      } else {
        waiting.add(a);
      }
    }
  }
}
