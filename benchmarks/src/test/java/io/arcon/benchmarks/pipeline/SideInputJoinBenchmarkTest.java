package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.IndexedEvents;
import io.arcon.benchmarks.pipeline.SideInputJoinBenchmark.Configuration;
import io.arcon.benchmarks.pipeline.SideInputJoinBenchmark.Sizes;
import io.arcon.benchmarks.pipeline.SideInputJoinPipeline.Table;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SideInputJoinBenchmarkTest {

  /**
   * Every configuration, on both runners, joins each element with the right row (the sum verifies
   * it), with windows short enough that many close while the run goes on.
   */
  @ParameterizedTest
  @EnumSource(Configuration.class)
  void everyConfigurationVerifies(Configuration configuration) {
    // DirectRunner reads an unbounded source in small bundles: fewer elements there.
    long elements = configuration.direct ? 3_000 : 30_000;
    double seconds =
        SideInputJoinBenchmark.runOnce(
            new String[] {"--parallelism=2"}, configuration, new Sizes(elements, 100, 2_000));
    assertTrue(seconds > 0);
  }

  @Test
  void expectedSumTakesEachElementsWindowRow() {
    // Two elements over 3 keys, windows of 3 ms: timestamps 200 - disorder and 201 - disorder.
    var shape = SideInputJoinPipeline.mainShape(2, 3);
    long windowed = 0;
    long global = 0;
    for (long i = 0; i < 2; i++) {
      windowed += 1 + DimensionRows.weightOf(shape.keyOf(i), shape.timestampOf(i) / 3);
      global += 1 + DimensionRows.weightOf(shape.keyOf(i), 0);
    }
    assertEquals(windowed, SideInputJoinPipeline.expectedSum(2, 3, 3, Table.WINDOWED));
    assertEquals(global, SideInputJoinPipeline.expectedSum(2, 3, 3, Table.GLOBAL));
    assertTrue(windowed != global, "windows 66 and 67 must give other weights than window 0");
  }

  /**
   * Each window holds exactly one row per key, in event-time order, over the interleaved splits.
   */
  @Test
  void tableHasOneRowPerKeyAndWindowInOrder() throws Exception {
    DimensionRows.Shape shape = new DimensionRows.Shape(4, 5, 10);
    List<IndexedEvents> splits = DimensionRows.of(shape).split(2, PipelineOptionsFactory.create());
    Map<Long, Set<Long>> keysByWindow = new HashMap<>();
    int rows = 0;
    for (IndexedEvents split : splits) {
      UnboundedReader<KV<Long, Long>> reader = split.createReader(null, null);
      long last = Long.MIN_VALUE;
      for (boolean more = reader.start(); more; more = reader.advance()) {
        long time = reader.getCurrentTimestamp().getMillis();
        assertTrue(time >= last, "rows of a split come in event-time order");
        assertTrue(reader.getWatermark().getMillis() <= time);
        last = time;
        long window = time / 10;
        KV<Long, Long> row = reader.getCurrent();
        assertEquals(DimensionRows.weightOf(row.getKey(), window), row.getValue());
        assertTrue(keysByWindow.computeIfAbsent(window, w -> new HashSet<>()).add(row.getKey()));
        rows++;
      }
      assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, reader.getWatermark());
    }
    assertEquals(20, rows);
    assertEquals(4, keysByWindow.size());
    keysByWindow.values().forEach(keys -> assertEquals(Set.of(0L, 1L, 2L, 3L, 4L), keys));
  }

  @Test
  void refusesATableThatDoesNotFitItsWindow() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new DimensionRows.Shape(1, 100, 50));
    assertTrue(e.getMessage().contains("longer window or fewer keys"), e.getMessage());
  }
}
