package io.arcon.benchmarks.nexmark.generator;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.Person;
import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * The NEXMark event stream as a pure function of the event index, so any runner, source split or
 * test oracle produces the same events from an index range: {@link #eventAt(long)}.
 *
 * <p>Of every 50 consecutive events the first is a new person, the next 3 are new auctions and the
 * other 46 are bids. Ids count up per kind, so the index alone says which persons and auctions
 * exist already: a bid refers to one of the {@value #IN_FLIGHT_AUCTIONS} newest auctions and to a
 * bidder among the {@value #ACTIVE_PERSONS} newest persons, an auction to a seller among them. As
 * in NEXMark, some ids are hot: half of all bids go to a hot auction, a quarter of bids come from
 * hot bidders and a quarter of auctions from hot sellers (the newest id rounded down to a multiple
 * of {@value #HOT_STRIDE}). An auction stays open for about as long as {@value #IN_FLIGHT_AUCTIONS}
 * auctions take to be created, so most bids find their auction open. Event times rise with the
 * index (no out-of-order events), so a source's watermark is exact.
 */
public final class EventGenerator implements Serializable {

  public static final int PERSONS_PER_CYCLE = 1;
  public static final int AUCTIONS_PER_CYCLE = 3;
  public static final int BIDS_PER_CYCLE = 46;
  public static final int CYCLE = PERSONS_PER_CYCLE + AUCTIONS_PER_CYCLE + BIDS_PER_CYCLE;

  public static final long FIRST_PERSON_ID = 1000;
  public static final long FIRST_AUCTION_ID = 1000;
  public static final long FIRST_CATEGORY_ID = 10;
  public static final int CATEGORIES = 5;

  static final int ACTIVE_PERSONS = 1000;
  static final int IN_FLIGHT_AUCTIONS = 100;
  static final int HOT_STRIDE = 10;

  /** Average auction length in events: the time {@link #IN_FLIGHT_AUCTIONS} auctions take. */
  private static final long AVERAGE_AUCTION_EVENTS =
      (long) IN_FLIGHT_AUCTIONS * CYCLE / AUCTIONS_PER_CYCLE;

  public static final String[] US_STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  private static final String[] US_CITIES = {
    "Phoenix",
    "Los Angeles",
    "San Francisco",
    "Boise",
    "Portland",
    "Bend",
    "Redmond",
    "Seattle",
    "Kent",
    "Cheyenne"
  };
  private static final String[] FIRST_NAMES = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"
  };
  private static final String[] LAST_NAMES = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"
  };

  private final GeneratorConfig config;

  public EventGenerator(GeneratorConfig config) {
    this.config = config;
  }

  public GeneratorConfig config() {
    return config;
  }

  /** The event time of event {@code index}, in epoch milliseconds. */
  public long timestampAt(long index) {
    return config.baseTimeMillis() + index * 1000 / config.eventsPerSecond();
  }

  /** The longest an auction can stay open, in milliseconds of event time. */
  public long maxAuctionDurationMillis() {
    return durationMillis(AVERAGE_AUCTION_EVENTS * 3 / 2);
  }

  /** How many of the events {@code 0..events-1} are bids (by the fixed proportions). */
  public static long bidsAmong(long events) {
    long fullCycles = events / CYCLE;
    int rest = (int) (events % CYCLE);
    return fullCycles * BIDS_PER_CYCLE + Math.max(0, rest - PERSONS_PER_CYCLE - AUCTIONS_PER_CYCLE);
  }

  /** Event {@code index} of the stream (0-based). */
  public Event eventAt(long index) {
    if (index < 0) {
      throw new IllegalArgumentException("Event indexes start at 0, got " + index);
    }
    SplittableRandom random = new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + index);
    long cycle = index / CYCLE;
    int offset = (int) (index % CYCLE);
    long time = timestampAt(index);
    if (offset < PERSONS_PER_CYCLE) {
      return Event.of(person(cycle, time, random));
    }
    if (offset < PERSONS_PER_CYCLE + AUCTIONS_PER_CYCLE) {
      long id = FIRST_AUCTION_ID + cycle * AUCTIONS_PER_CYCLE + (offset - PERSONS_PER_CYCLE);
      return Event.of(auction(id, cycle, time, random));
    }
    return Event.of(bid(cycle, time, random));
  }

  private static Person person(long cycle, long time, SplittableRandom random) {
    String name = pick(FIRST_NAMES, random) + " " + pick(LAST_NAMES, random);
    String email = letters(7, random) + "@" + letters(5, random) + ".com";
    String card =
        String.format(
            "%04d %04d %04d %04d",
            random.nextInt(10_000),
            random.nextInt(10_000),
            random.nextInt(10_000),
            random.nextInt(10_000));
    return new Person(
        FIRST_PERSON_ID + cycle,
        name,
        email,
        card,
        pick(US_CITIES, random),
        pick(US_STATES, random),
        time);
  }

  private Auction auction(long id, long cycle, long time, SplittableRandom random) {
    long seller =
        random.nextInt(4) == 0
            ? hot(newestPerson(cycle), FIRST_PERSON_ID)
            : recent(newestPerson(cycle), FIRST_PERSON_ID, ACTIVE_PERSONS, random);
    long initialBid = price(random);
    long lengthEvents = AVERAGE_AUCTION_EVENTS / 2 + random.nextLong(AVERAGE_AUCTION_EVENTS + 1);
    return new Auction(
        id,
        letters(10, random),
        letters(20, random),
        initialBid,
        initialBid + price(random),
        time,
        time + durationMillis(lengthEvents),
        seller,
        FIRST_CATEGORY_ID + random.nextInt(CATEGORIES));
  }

  private static Bid bid(long cycle, long time, SplittableRandom random) {
    long newestAuction = FIRST_AUCTION_ID + cycle * AUCTIONS_PER_CYCLE + AUCTIONS_PER_CYCLE - 1;
    long auction =
        random.nextBoolean()
            ? hot(newestAuction, FIRST_AUCTION_ID)
            : recent(newestAuction, FIRST_AUCTION_ID, IN_FLIGHT_AUCTIONS, random);
    long bidder =
        random.nextInt(4) == 0
            ? hot(newestPerson(cycle), FIRST_PERSON_ID)
            : recent(newestPerson(cycle), FIRST_PERSON_ID, ACTIVE_PERSONS, random);
    return new Bid(auction, bidder, price(random), time);
  }

  /** The newest person when an auction or bid of {@code cycle} is made (its cycle's person). */
  private static long newestPerson(long cycle) {
    return FIRST_PERSON_ID + cycle;
  }

  /**
   * The hot id: {@code newest} rounded down to a multiple of {@link #HOT_STRIDE} from {@code
   * first}.
   */
  private static long hot(long newest, long first) {
    return newest - (newest - first) % HOT_STRIDE;
  }

  /** One of the {@code window} newest ids up to {@code newest}, uniformly. */
  private static long recent(long newest, long first, int window, SplittableRandom random) {
    long oldest = Math.max(first, newest - window + 1);
    return oldest + random.nextLong(newest - oldest + 1);
  }

  /** A price in cents, log-uniform from $1 to $10,000 as in NEXMark's generator. */
  private static long price(SplittableRandom random) {
    return Math.round(Math.pow(10.0, random.nextDouble() * 4.0) * 100.0);
  }

  private long durationMillis(long events) {
    return Math.max(1, events * 1000 / config.eventsPerSecond());
  }

  private static String pick(String[] values, SplittableRandom random) {
    return values[random.nextInt(values.length)];
  }

  private static String letters(int length, SplittableRandom random) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }
}
