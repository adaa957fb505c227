package io.arcon.benchmarks.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.generator.GeneratorConfig;
import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.Person;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.junit.jupiter.api.Test;

class EventGeneratorTest {
  private static final int EVENTS = 50_000;
  private final EventGenerator generator = new EventGenerator(GeneratorConfig.of(3, 10_000));

  @Test
  void sameSeedAndIndexGiveTheSameEventInAnyOrder() {
    EventGenerator other = new EventGenerator(GeneratorConfig.of(3, 10_000));
    for (long i = EVENTS - 1; i >= 0; i -= 7) {
      assertEquals(generator.eventAt(i), other.eventAt(i));
    }
  }

  @Test
  void anotherSeedGivesOtherEvents() {
    EventGenerator other = new EventGenerator(GeneratorConfig.of(4, 10_000));
    int different = 0;
    for (long i = 0; i < 1_000; i++) {
      if (!generator.eventAt(i).equals(other.eventAt(i))) {
        different++;
      }
    }
    assertTrue(different > 900, different + " of 1000 events differ");
  }

  @Test
  void everyFiftyEventsHoldOnePersonThreeAuctionsAndFortySixBids() {
    for (long cycle = 0; cycle < EVENTS / 50; cycle++) {
      int persons = 0;
      int auctions = 0;
      int bids = 0;
      for (long i = cycle * 50; i < cycle * 50 + 50; i++) {
        Event e = generator.eventAt(i);
        persons += e.newPerson() != null ? 1 : 0;
        auctions += e.newAuction() != null ? 1 : 0;
        bids += e.bid() != null ? 1 : 0;
      }
      assertEquals(1, persons);
      assertEquals(3, auctions);
      assertEquals(46, bids);
    }
    assertEquals(46_000, EventGenerator.bidsAmong(EVENTS));
    assertEquals(46 + 3, EventGenerator.bidsAmong(57));
  }

  @Test
  void referencesPointAtEarlierPersonsAndAuctionsAndHalfTheBidsGoToHotAuctions() {
    Set<Long> persons = new HashSet<>();
    Map<Long, Auction> auctions = new HashMap<>();
    Map<Long, Integer> bidsPerAuction = new HashMap<>();
    long previousTime = Long.MIN_VALUE;
    for (long i = 0; i < EVENTS; i++) {
      Event e = generator.eventAt(i);
      assertTrue(e.dateTime() >= previousTime, "event times rise with the index");
      assertEquals(generator.timestampAt(i), e.dateTime());
      previousTime = e.dateTime();
      if (e.newPerson() != null) {
        Person p = e.newPerson();
        assertTrue(persons.add(p.id()), "person ids are unique");
        assertTrue(Set.of(EventGenerator.US_STATES).contains(p.state()));
      } else if (e.newAuction() != null) {
        Auction a = e.newAuction();
        assertTrue(persons.contains(a.seller()), "the seller registered before the auction");
        assertTrue(a.expires() > a.dateTime());
        assertTrue(a.expires() - a.dateTime() <= generator.maxAuctionDurationMillis());
        assertTrue(a.reserve() > a.initialBid());
        assertTrue(a.category() >= 10 && a.category() < 10 + EventGenerator.CATEGORIES);
        auctions.put(a.id(), a);
      } else {
        Bid b = e.bid();
        assertTrue(auctions.containsKey(b.auction()), "the auction opened before the bid");
        assertTrue(persons.contains(b.bidder()), "the bidder registered before the bid");
        assertTrue(b.price() >= 100 && b.price() <= 1_000_000, "from $1 to $10,000");
        bidsPerAuction.merge(b.auction(), 1, Integer::sum);
      }
    }
    // Hot auctions: the 10% of auctions with the most bids get more than half of all bids.
    int[] counts = bidsPerAuction.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    long top = 0;
    for (int k = counts.length - 1; k >= counts.length - auctions.size() / 10; k--) {
      top += counts[k];
    }
    assertTrue(top > 46_000 / 2, top + " of 46,000 bids go to the hottest tenth of auctions");
  }

  @Test
  void eventTimeAdvancesAtTheConfiguredRate() {
    assertEquals(GeneratorConfig.DEFAULT_BASE_TIME_MILLIS, generator.timestampAt(0));
    assertEquals(GeneratorConfig.DEFAULT_BASE_TIME_MILLIS + 1_000, generator.timestampAt(10_000));
  }

  @Test
  void modelRoundTripsThroughItsBeamCodersAndIsAFlinkPojo() throws Exception {
    for (long i = 0; i < 50; i++) {
      Event e = generator.eventAt(i);
      Coder<Event> coder = Event.EventCoder.of();
      assertEquals(
          e, CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, e)));
    }
    coderOfEveryKind();
    for (Class<?> type : new Class<?>[] {Event.class, Person.class, Auction.class, Bid.class}) {
      assertTrue(
          TypeInformation.of(type) instanceof PojoTypeInfo,
          type.getSimpleName() + " must be a Flink POJO, not a Kryo generic type");
    }
  }

  private void coderOfEveryKind() throws Exception {
    Set<Integer> kinds = new HashSet<>();
    for (long i = 0; i < 5; i++) {
      Event e = generator.eventAt(i);
      kinds.add(e.bid() != null ? 2 : e.newAuction() != null ? 1 : 0);
      byte[] once = CoderUtils.encodeToByteArray(Event.EventCoder.of(), e);
      byte[] twice = CoderUtils.encodeToByteArray(Event.EventCoder.of(), generator.eventAt(i));
      assertEquals(java.util.Arrays.toString(once), java.util.Arrays.toString(twice));
    }
    assertEquals(Set.of(0, 1, 2), kinds);
  }

  @Test
  void negativeIndexAndRateAreRejected() {
    assertEquals(
        "Event indexes start at 0, got -1",
        assertThrows(IllegalArgumentException.class, () -> generator.eventAt(-1)).getMessage());
    assertEquals(
        "The event-time rate must be positive (events per second), got 0",
        assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.of(1, 0)).getMessage());
    assertNotEquals(generator.eventAt(0), generator.eventAt(1));
  }
}
