package io.arcon.benchmarks.nexmark;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.AuctionCount;
import io.arcon.benchmarks.nexmark.model.AuctionPrice;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.BidsPerSession;
import io.arcon.benchmarks.nexmark.model.CategoryPrice;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.IdNameReserve;
import io.arcon.benchmarks.nexmark.model.NameCityStateId;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.model.Person;
import io.arcon.benchmarks.nexmark.model.SellerPrice;
import io.arcon.benchmarks.nexmark.query.QueryConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The queries' expected outputs, computed in plain Java over the whole generated event list, from
 * the query definitions (not from the pipelines' code): windows are computed arithmetically, joins
 * by lookup, the winning bid by a scan of all bids.
 */
final class NexmarkOracle {
  private final List<Person> persons = new ArrayList<>();
  private final List<Auction> auctions = new ArrayList<>();
  private final List<Bid> bids = new ArrayList<>();
  private final List<Event> events = new ArrayList<>();
  private final QueryConfig config;

  NexmarkOracle(EventGenerator generator, long count, QueryConfig config) {
    this.config = config;
    for (long i = 0; i < count; i++) {
      Event e = generator.eventAt(i);
      events.add(e);
      if (e.newPerson() != null) {
        persons.add(e.newPerson());
      } else if (e.newAuction() != null) {
        auctions.add(e.newAuction());
      } else {
        bids.add(e.bid());
      }
    }
  }

  List<? extends NexmarkResult> expected(int query) {
    return switch (query) {
      case 0 -> events;
      case 1 -> bids.stream().map(b -> b.withPrice(b.price() * 89 / 100)).toList();
      case 2 ->
          bids.stream()
              .filter(b -> b.auction() % 123 == 0)
              .map(b -> new AuctionPrice(b.auction(), b.price()))
              .toList();
      case 3 -> q3();
      case 4 -> q4();
      case 5 -> q5();
      case 6 -> q6();
      case 7 -> q7();
      case 8 -> q8();
      case 11 -> q11();
      default -> throw new IllegalArgumentException("No oracle for query " + query);
    };
  }

  private List<NameCityStateId> q3() {
    Map<Long, Person> local = new HashMap<>();
    for (Person p : persons) {
      if (Set.of("OR", "ID", "CA").contains(p.state())) {
        local.put(p.id(), p);
      }
    }
    List<NameCityStateId> out = new ArrayList<>();
    for (Auction a : auctions) {
      Person seller = local.get(a.seller());
      if (a.category() == 10 && seller != null) {
        out.add(new NameCityStateId(seller.name(), seller.city(), seller.state(), a.id()));
      }
    }
    return out;
  }

  /**
   * The auctions that close with a winner, whose bid goes into {@code winningBid}: the highest
   * valid bid (the earliest, then the lowest bidder, on equal prices).
   */
  private List<Auction> closedWithWinner(Map<Long, Bid> winningBid) {
    Map<Long, Auction> byId = new HashMap<>();
    auctions.forEach(a -> byId.put(a.id(), a));
    for (Bid b : bids) {
      Auction a = byId.get(b.auction());
      boolean valid =
          a != null
              && b.dateTime() >= a.dateTime()
              && b.dateTime() < a.expires()
              && b.price() >= a.reserve();
      if (!valid) {
        continue;
      }
      Bid best = winningBid.get(a.id());
      boolean better =
          best == null
              || b.price() > best.price()
              || (b.price() == best.price() && b.dateTime() < best.dateTime())
              || (b.price() == best.price()
                  && b.dateTime() == best.dateTime()
                  && b.bidder() < best.bidder());
      if (better) {
        winningBid.put(a.id(), b);
      }
    }
    return auctions.stream().filter(a -> winningBid.containsKey(a.id())).toList();
  }

  private List<CategoryPrice> q4() {
    Map<Long, Bid> winning = new HashMap<>();
    Map<List<Long>, long[]> sums = new TreeMap<>(Comparator.comparing(Object::toString));
    for (Auction a : closedWithWinner(winning)) {
      long closedAt = a.expires() - 1;
      long windowEnd = fixedWindowStart(closedAt) + config.windowSizeMillis();
      long[] sum = sums.computeIfAbsent(List.of(a.category(), windowEnd), k -> new long[2]);
      sum[0] += winning.get(a.id()).price();
      sum[1]++;
    }
    List<CategoryPrice> out = new ArrayList<>();
    sums.forEach(
        (key, sum) -> out.add(new CategoryPrice(key.get(0), key.get(1), (double) sum[0] / sum[1])));
    return out;
  }

  private List<AuctionCount> q5() {
    Map<Long, Map<Long, Long>> countsByWindowEnd = new HashMap<>();
    for (Bid b : bids) {
      long lastStart = b.dateTime() - Math.floorMod(b.dateTime(), config.windowPeriodMillis());
      for (long start = lastStart;
          start > b.dateTime() - config.windowSizeMillis();
          start -= config.windowPeriodMillis()) {
        countsByWindowEnd
            .computeIfAbsent(start + config.windowSizeMillis(), k -> new HashMap<>())
            .merge(b.auction(), 1L, Long::sum);
      }
    }
    List<AuctionCount> out = new ArrayList<>();
    countsByWindowEnd.forEach(
        (end, counts) -> {
          long max = counts.values().stream().mapToLong(Long::longValue).max().orElseThrow();
          counts.forEach(
              (auction, count) -> {
                if (count == max) {
                  out.add(new AuctionCount(end, auction, count));
                }
              });
        });
    return out;
  }

  private List<SellerPrice> q6() {
    Map<Long, Bid> winning = new HashMap<>();
    List<Auction> closed = new ArrayList<>(closedWithWinner(winning));
    closed.sort(Comparator.comparingLong(Auction::expires).thenComparingLong(Auction::id));
    Map<Long, Deque<Long>> lastPrices = new HashMap<>();
    List<SellerPrice> out = new ArrayList<>();
    for (Auction a : closed) {
      Deque<Long> prices = lastPrices.computeIfAbsent(a.seller(), k -> new ArrayDeque<>());
      prices.addLast(winning.get(a.id()).price());
      if (prices.size() > 10) {
        prices.removeFirst();
      }
      long sum = prices.stream().mapToLong(Long::longValue).sum();
      out.add(new SellerPrice(a.seller(), a.id(), sum / prices.size()));
    }
    return out;
  }

  private List<Bid> q7() {
    Map<Long, Long> highest = new HashMap<>();
    for (Bid b : bids) {
      highest.merge(fixedWindowStart(b.dateTime()), b.price(), Math::max);
    }
    return bids.stream()
        .filter(b -> b.price() == highest.get(fixedWindowStart(b.dateTime())))
        .toList();
  }

  private List<IdNameReserve> q8() {
    List<IdNameReserve> out = new ArrayList<>();
    Map<List<Long>, List<Person>> personsByIdAndWindow = new HashMap<>();
    for (Person p : persons) {
      personsByIdAndWindow
          .computeIfAbsent(List.of(p.id(), fixedWindowStart(p.dateTime())), k -> new ArrayList<>())
          .add(p);
    }
    for (Auction a : auctions) {
      for (Person p :
          personsByIdAndWindow.getOrDefault(
              List.of(a.seller(), fixedWindowStart(a.dateTime())), List.of())) {
        out.add(new IdNameReserve(p.id(), p.name(), a.reserve()));
      }
    }
    return out;
  }

  private List<BidsPerSession> q11() {
    Map<Long, List<Long>> timesByBidder = new HashMap<>();
    for (Bid b : bids) {
      timesByBidder.computeIfAbsent(b.bidder(), k -> new ArrayList<>()).add(b.dateTime());
    }
    List<BidsPerSession> out = new ArrayList<>();
    timesByBidder.forEach(
        (bidder, times) -> {
          times.sort(null);
          long end = Long.MIN_VALUE;
          long count = 0;
          for (long t : times) {
            if (count > 0 && t >= end) {
              out.add(new BidsPerSession(bidder, end, count));
              count = 0;
            }
            end = Math.max(end, t + config.sessionGapMillis());
            count++;
          }
          out.add(new BidsPerSession(bidder, end, count));
        });
    return out;
  }

  private long fixedWindowStart(long time) {
    return time - Math.floorMod(time, config.windowSizeMillis());
  }
}
