package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.Person;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/** The Beam steps that take one kind of record out of the event stream. */
final class BeamEvents {
  private BeamEvents() {}

  static PCollection<Bid> bids(PCollection<Event> events) {
    return events.apply("Bids", ParDo.of(new BidsOf()));
  }

  static PCollection<Auction> auctions(PCollection<Event> events) {
    return events.apply("Auctions", ParDo.of(new AuctionsOf()));
  }

  static PCollection<Person> persons(PCollection<Event> events) {
    return events.apply("Persons", ParDo.of(new PersonsOf()));
  }

  private static final class BidsOf extends DoFn<Event, Bid> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<Bid> out) {
      if (e.bid() != null) {
        out.output(e.bid());
      }
    }
  }

  private static final class AuctionsOf extends DoFn<Event, Auction> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<Auction> out) {
      if (e.newAuction() != null) {
        out.output(e.newAuction());
      }
    }
  }

  private static final class PersonsOf extends DoFn<Event, Person> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<Person> out) {
      if (e.newPerson() != null) {
        out.output(e.newPerson());
      }
    }
  }
}
