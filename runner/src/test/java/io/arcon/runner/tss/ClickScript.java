package io.arcon.runner.tss;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted click stream for TSS tests and the oracle of its states: clicks every 100 ms of event
 * time, up to 3 s out of order; a watermark step every 2 s trailing by 3 s; an event at T-1 ms and
 * one exactly at T for each version time T; now and then a late event behind the watermark; and
 * gates that hold the stream until the test opens them (the first before any event, then one after
 * the watermark passed each given time).
 *
 * <p>The oracle calls an event late when it comes after a watermark step past its timestamp. An
 * operator sees it late only if its input watermark, the minimum over every source instance, passed
 * it: the script has one split, and the source instance without one holds that minimum until its
 * end reaches the operator. So the script publishes {@link #preludeWatermark} before the first
 * gate, and a test opens that gate only once the app reported it ({@link
 * TssTestSupport#awaitWatermark}): every operator instance has then seen the other source end, and
 * from then on lateness follows the script's one stream.
 */
final class ClickScript {
  static final List<String> KEYS =
      List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi");

  /** A scripted event and the watermark that was published when it arrived. */
  record Arrival(ScriptedClicks.Event event, long watermarkAtArrival) {
    boolean late() {
      return event.timestampMillis() < watermarkAtArrival;
    }
  }

  /** One row of a state at a version, as the oracle computes it and as read back from Parquet. */
  record Row(String key, long value, long updatedAt, long version) {}

  /** How far before the first click the prelude watermark stands: below every click's time. */
  private static final long PRELUDE_LEAD_MILLIS = 10_000;

  final List<ScriptedClicks.Step> steps = new ArrayList<>();

  /** The watermark published before the first gate (see the class comment). */
  final long preludeWatermark;

  private final List<CountDownLatch> reached = new ArrayList<>();
  final List<Arrival> arrivals = new ArrayList<>();

  /**
   * @param base event time of the first click
   * @param clicks number of clicks (one per 100 ms)
   * @param versions version times that get an event at T-1 ms and at T
   * @param gates the first holds the start; gate i > 0 holds the stream once the watermark passed
   *     {@code gateAfter[i - 1]}
   */
  ClickScript(
      long seed, long base, int clicks, long[] versions, CountDownLatch[] gates, long[] gateAfter) {
    Random rnd = new Random(seed);
    preludeWatermark = base - PRELUDE_LEAD_MILLIS;
    steps.add(new ScriptedClicks.WatermarkStep(preludeWatermark));
    gate(gates[0]);
    long watermark = preludeWatermark;
    int nextGate = 1;
    int nextVersion = 0;
    for (int i = 1; i <= clicks; i++) {
      long now = base + i * 100L;
      add(event(rnd, now - rnd.nextInt(3000)), watermark);
      if (nextVersion < versions.length && now >= versions[nextVersion] + 500) {
        add(new ScriptedClicks.Event(key(rnd), 100, versions[nextVersion] - 1), watermark);
        add(new ScriptedClicks.Event(key(rnd), 1000, versions[nextVersion]), watermark);
        nextVersion++;
      }
      if (i % 20 == 0) {
        watermark = now - 3000;
        steps.add(new ScriptedClicks.WatermarkStep(watermark));
        if (rnd.nextInt(3) == 0) {
          add(event(rnd, watermark - 1 - rnd.nextInt(1000)), watermark);
        }
        while (nextGate < gates.length && watermark > gateAfter[nextGate - 1]) {
          gate(gates[nextGate++]);
        }
      }
    }
  }

  private void gate(CountDownLatch open) {
    CountDownLatch arrived = new CountDownLatch(1);
    reached.add(arrived);
    steps.add(new ScriptedClicks.Gate(open, arrived));
  }

  /** Opens when the source waits at gate {@code index} (in the order of the constructor's). */
  CountDownLatch reached(int index) {
    return reached.get(index);
  }

  private void add(ScriptedClicks.Event e, long watermark) {
    steps.add(e);
    arrivals.add(new Arrival(e, watermark));
  }

  private static ScriptedClicks.Event event(Random rnd, long timestamp) {
    return new ScriptedClicks.Event(key(rnd), 1 + rnd.nextInt(9), timestamp);
  }

  private static String key(Random rnd) {
    return KEYS.get(rnd.nextInt(KEYS.size()));
  }

  /**
   * The exact state "sum per key" at {@code version}: on-time events before T (late ones are
   * dropped by time-sorted input); updated at the latest of them.
   */
  List<Row> exactSums(long version) {
    Map<String, long[]> byKey = new TreeMap<>();
    for (Arrival a : arrivals) {
      if (!a.late() && a.event().timestampMillis() < version) {
        long[] v = byKey.computeIfAbsent(a.event().key(), k -> new long[] {0, Long.MIN_VALUE});
        v[0] += a.event().value();
        v[1] = Math.max(v[1], a.event().timestampMillis());
      }
    }
    return rows(byKey, version);
  }

  /**
   * For a failed comparison of {@link #exactSums}: every key whose row differs, with that key's
   * arrivals (timestamp, value, the script's watermark when it arrived, late or not) around {@code
   * version}, so a mismatch names the events that were counted differently.
   */
  String explainExactDifference(List<Row> expected, List<Row> actual, long version) {
    Map<String, Row> actualByKey = new TreeMap<>();
    actual.forEach(r -> actualByKey.put(r.key(), r));
    StringBuilder out = new StringBuilder();
    for (Row want : expected) {
      Row got = actualByKey.get(want.key());
      if (want.equals(got)) {
        continue;
      }
      out.append("\n  ").append(want.key()).append(": expected ").append(want);
      out.append(", read ").append(got).append("; arrivals within 5 s of T:");
      for (Arrival a : arrivals) {
        long ts = a.event().timestampMillis();
        if (a.event().key().equals(want.key()) && Math.abs(ts - version) <= 5_000) {
          out.append("\n    ts T")
              .append(ts - version >= 0 ? "+" : "")
              .append(ts - version)
              .append(" value ")
              .append(a.event().value())
              .append(" watermark T")
              .append(a.watermarkAtArrival() - version >= 0 ? "+" : "")
              .append(a.watermarkAtArrival() - version)
              .append(a.late() ? " LATE" : "");
        }
      }
    }
    return out.toString();
  }

  /**
   * The watermark-cut state "events per key" at {@code version}: every event that arrived while the
   * watermark was still before T, late ones included (the window is global); updated at the last of
   * them in arrival order.
   */
  List<Row> cutCounts(long version) {
    Map<String, long[]> byKey = new TreeMap<>();
    for (Arrival a : arrivals) {
      if (a.watermarkAtArrival() < version) {
        long[] v = byKey.computeIfAbsent(a.event().key(), k -> new long[] {0, 0});
        v[0]++;
        v[1] = a.event().timestampMillis();
      }
    }
    return rows(byKey, version);
  }

  /**
   * Whether {@code rows} are, on every parallel instance, the events-per-key counts of a prefix of
   * that instance's arrivals holding at least every event that arrived before the source's
   * watermark passed {@code version}: a true cut of each instance's stream, taken at or after its
   * watermark passed T. (Each instance cuts when its own watermark passes T, which depends on when
   * the runtime delivered the watermark to it; the script does not fix that.)
   *
   * @param ownerOfKey the instance that owns a key
   */
  boolean isCutAtOrAfter(
      List<Row> rows, long version, java.util.function.ToIntFunction<String> ownerOfKey) {
    Map<Integer, List<Arrival>> arrivalsByOwner = new TreeMap<>();
    for (Arrival a : arrivals) {
      arrivalsByOwner
          .computeIfAbsent(ownerOfKey.applyAsInt(a.event().key()), o -> new ArrayList<>())
          .add(a);
    }
    for (Map.Entry<Integer, List<Arrival>> owner : arrivalsByOwner.entrySet()) {
      List<Row> ownRows =
          rows.stream().filter(r -> ownerOfKey.applyAsInt(r.key()) == owner.getKey()).toList();
      if (!isPrefixCut(owner.getValue(), ownRows, version)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPrefixCut(List<Arrival> arrivals, List<Row> rows, long version) {
    int atLeast = 0;
    for (int i = 0; i < arrivals.size(); i++) {
      if (arrivals.get(i).watermarkAtArrival() < version) {
        atLeast = i + 1;
      }
    }
    Map<String, long[]> byKey = new TreeMap<>();
    for (int k = 0; k <= arrivals.size(); k++) {
      if (k >= atLeast && rows(byKey, version).equals(rows)) {
        return true;
      }
      if (k < arrivals.size()) {
        Arrival a = arrivals.get(k);
        long[] v = byKey.computeIfAbsent(a.event().key(), key -> new long[] {0, 0});
        v[0]++;
        v[1] = a.event().timestampMillis();
      }
    }
    return false;
  }

  private static List<Row> rows(Map<String, long[]> byKey, long version) {
    List<Row> rows = new ArrayList<>();
    byKey.forEach((k, v) -> rows.add(new Row(k, v[0], v[1], version)));
    return rows;
  }
}
