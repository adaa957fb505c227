package io.arcon.runner.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The oracle: the lines each window's files must hold, computed from the {@link EventStream} alone
 * by Beam's model (not by running a pipeline):
 *
 * <ul>
 *   <li>dropped events count nowhere;
 *   <li>Sum and Count (discarding panes): per key and window an ON_TIME pane 0 over the on-time
 *       events, then for the window's late event a LATE pane 1 over that event alone;
 *   <li>running totals: flush 1 at the end of the window over the on-time events, flush 2 after the
 *       late event, including it.
 * </ul>
 *
 * Files are compared per window (all panes of a window's files together): which files the panes
 * land in is up to the sink's own trigger, not part of the exactly-once promise.
 */
final class ExpectedOutput {
  private ExpectedOutput() {}

  /** Per (key, window): totals and the late event, in stream order. */
  private static final class Cell {
    long count;
    long sum;
    final List<Event> late = new ArrayList<>();
  }

  /**
   * Per sink and window ({@link SinkFiles#windowKey}), the sorted lines: what a correct run writes.
   */
  static SortedMap<String, List<String>> of(EventStream stream) {
    // window start -> key -> cell, both sorted so the output order is stable
    SortedMap<Long, SortedMap<String, Cell>> cells = new TreeMap<>();
    for (long slot = 0; slot < stream.events(); slot++) {
      EventStream.Kind kind = stream.kind(slot);
      if (kind == EventStream.Kind.DROPPED) {
        continue;
      }
      long window = EventStream.windowIndexOf(stream.timestampMillis(slot));
      Event e = stream.event(slot);
      Cell cell = cells.computeIfAbsent(window, w -> new TreeMap<>()).get(e.key());
      if (kind == EventStream.Kind.ON_TIME) {
        if (cell == null) {
          cell = new Cell();
          cells.get(window).put(e.key(), cell);
        }
        cell.count++;
        cell.sum += e.value();
      } else {
        if (cell == null) {
          throw new IllegalStateException(
              "Late event at slot " + slot + " has no on-time pane to follow: fix EventStream");
        }
        cell.late.add(e);
      }
    }
    SortedMap<String, List<String>> expected = new TreeMap<>();
    for (Map.Entry<Long, SortedMap<String, Cell>> byWindow : cells.entrySet()) {
      long start = EventStream.windowStart(byWindow.getKey());
      String window = FaultPipeline.windowText(start, start + EventStream.windowMillis());
      List<String> aggregates = new ArrayList<>();
      List<String> totals = new ArrayList<>();
      for (Map.Entry<String, Cell> byKey : byWindow.getValue().entrySet()) {
        String key = byKey.getKey();
        Cell cell = byKey.getValue();
        long count = cell.count;
        long sum = cell.sum;
        aggregates.add(aggregate("sum", key, window, 0, "ON_TIME", sum));
        aggregates.add(aggregate("count", key, window, 0, "ON_TIME", count));
        totals.add(totals(key, window, 1, count, sum));
        int pane = 0;
        for (Event late : cell.late) {
          count++;
          sum += late.value();
          pane++;
          aggregates.add(aggregate("sum", key, window, pane, "LATE", late.value()));
          aggregates.add(aggregate("count", key, window, pane, "LATE", 1));
          totals.add(totals(key, window, pane + 1, count, sum));
        }
      }
      expected.put(SinkFiles.windowKey(FaultPipeline.AGGREGATES, window), sorted(aggregates));
      expected.put(SinkFiles.windowKey(FaultPipeline.TOTALS, window), sorted(totals));
    }
    return expected;
  }

  /** How many events of each kind the stream has, for the test logs. */
  static Map<EventStream.Kind, Integer> kinds(EventStream stream) {
    Map<EventStream.Kind, Integer> kinds = new TreeMap<>();
    for (long slot = 0; slot < stream.events(); slot++) {
      kinds.merge(stream.kind(slot), 1, Integer::sum);
    }
    return kinds;
  }

  private static String aggregate(
      String name, String key, String window, int pane, String timing, long value) {
    return name
        + " key="
        + key
        + " window="
        + window
        + " pane="
        + pane
        + "/"
        + timing
        + " value="
        + value;
  }

  private static String totals(String key, String window, int flush, long count, long sum) {
    return "totals key="
        + key
        + " window="
        + window
        + " flush="
        + flush
        + " count="
        + count
        + " sum="
        + sum;
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    copy.sort(null);
    return copy;
  }
}
