package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.Person;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.Collector;

/** The Flink steps that take one kind of record out of the event stream. */
final class FlinkEvents {
  private FlinkEvents() {}

  static DataStream<Bid> bids(DataStream<Event> events) {
    return events
        .flatMap((Event e, Collector<Bid> out) -> emitIfSet(e.bid(), out))
        .returns(TypeInformation.of(Bid.class))
        .name("Bids");
  }

  static DataStream<Auction> auctions(DataStream<Event> events) {
    return events
        .flatMap((Event e, Collector<Auction> out) -> emitIfSet(e.newAuction(), out))
        .returns(TypeInformation.of(Auction.class))
        .name("Auctions");
  }

  static DataStream<Person> persons(DataStream<Event> events) {
    return events
        .flatMap((Event e, Collector<Person> out) -> emitIfSet(e.newPerson(), out))
        .returns(TypeInformation.of(Person.class))
        .name("Persons");
  }

  private static <T> void emitIfSet(T value, Collector<T> out) {
    if (value != null) {
      out.collect(value);
    }
  }
}
