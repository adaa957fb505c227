package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * One event of the stream: exactly one of its three fields is set (use the {@code of} factories). A
 * record of three nullable fields, rather than a sealed hierarchy, is what Flink's POJO serializer
 * handles without Kryo; it also builds records from all-null fields, so the canonical constructor
 * does not check.
 */
@DefaultCoder(Event.EventCoder.class)
public record Event(Person newPerson, Auction newAuction, Bid bid) implements NexmarkResult {

  public static Event of(Person person) {
    return new Event(person, null, null);
  }

  public static Event of(Auction auction) {
    return new Event(null, auction, null);
  }

  public static Event of(Bid bid) {
    return new Event(null, null, bid);
  }

  /** The event time: when the person registered, the auction opened or the bid was made. */
  public long dateTime() {
    if (bid != null) {
      return bid.dateTime();
    }
    return newAuction != null ? newAuction.dateTime() : newPerson.dateTime();
  }

  @Override
  public long fingerprint() {
    if (bid != null) {
      return bid.fingerprint();
    }
    return newAuction != null ? newAuction.fingerprint() : newPerson.fingerprint();
  }

  /** The Beam coder of {@link Event}: a tag byte, then the one record. */
  public static final class EventCoder extends FieldCoder<Event> {
    private static final EventCoder INSTANCE = new EventCoder();
    private static final int PERSON = 0;
    private static final int AUCTION = 1;
    private static final int BID = 2;

    public static EventCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(Event.class), INSTANCE);
    }

    @Override
    public void encode(Event e, OutputStream out) throws IOException {
      if (e.bid != null) {
        out.write(BID);
        Bid.BidCoder.of().encode(e.bid, out);
      } else if (e.newAuction != null) {
        out.write(AUCTION);
        Auction.AuctionCoder.of().encode(e.newAuction, out);
      } else {
        out.write(PERSON);
        Person.PersonCoder.of().encode(e.newPerson, out);
      }
    }

    @Override
    public Event decode(InputStream in) throws IOException {
      int tag = in.read();
      return switch (tag) {
        case BID -> Event.of(Bid.BidCoder.of().decode(in));
        case AUCTION -> Event.of(Auction.AuctionCoder.of().decode(in));
        case PERSON -> Event.of(Person.PersonCoder.of().decode(in));
        default -> throw new IOException("Not an encoded Nexmark event: tag " + tag);
      };
    }
  }
}
