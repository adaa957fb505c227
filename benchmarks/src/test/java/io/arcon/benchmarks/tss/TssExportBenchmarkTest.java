package io.arcon.benchmarks.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class TssExportBenchmarkTest {

  /**
   * The whole benchmark, tiny: every throughput configuration and an extraction on both backends,
   * each run verified by the benchmark itself (it throws on a wrong count or a wrong version).
   */
  @Test
  void tinyRunMeasuresAndVerifiesEveryConfigurationAndExtraction() throws Exception {
    String[] args = {
      "--elements=3000",
      "--warmupElements=0",
      "--keys=100",
      "--runs=1",
      "--extractKeys=2000",
      "--extractElements=5000",
      "--parallelism=2"
    };
    TssExportBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(TssExportBenchmark.Options.class);
    TssExportBenchmark.Results results = TssExportBenchmark.run(args, options);

    assertEquals(ThroughputConfiguration.values().length, results.throughput().size());
    for (TssExportBenchmark.Measurement m : results.throughput()) {
      assertEquals(1, m.rates().size());
      assertTrue(m.best() > 0, m.toString());
      // Each measured run came with a short one (its steady rate may be NaN at this size).
      assertEquals(1, m.steadyRates().size());
    }
    // Two backends, two versions each (the default --extractVersions).
    assertEquals(4, results.extraction().size());
    for (ExtractionMeasurement m : results.extraction()) {
      assertEquals(2000, m.rows());
      assertTrue(m.version() == 1 || m.version() == 2, m.toString());
      assertTrue(m.createToCommittedSeconds() > 0 && m.partFilesSeconds() > 0, m.toString());
    }
    String report = TssExportBenchmark.report(options, results);
    assertTrue(
        report.contains("(c) --tss=on --tssExport (exact), rocksdb / (a) --tss=off, rocksdb"));
    assertTrue(report.contains("(c) --tss=on --tssExport (exact), lmdb / (a) --tss=off, lmdb"));
    assertTrue(
        report.contains(
            "steady-state ratio (c) --tss=on --tssExport (exact), lmdb / (a) --tss=off, lmdb"),
        report);
  }

  @Test
  void distinctKeysMatchesEnumeratingTheStream() {
    for (int keys : new int[] {1, 7, 31, 62, 100}) {
      for (long elements : new long[] {1, 5, 31, 200}) {
        CounterEvents.Shape shape = new CounterEvents.Shape(elements, keys, 0, 1, 1, 0);
        Set<Long> seen = new HashSet<>();
        for (long i = 0; i < elements; i++) {
          seen.add(shape.keyOf(i));
        }
        assertEquals(
            seen.size(),
            CounterPipeline.distinctKeys(elements, keys),
            elements + " elements over " + keys + " keys");
      }
    }
  }

  @Test
  void noElementIsBehindTheWatermarkItsSplitReportedBefore() {
    CounterEvents.Shape shape = new CounterEvents.Shape(20_000, 10, 1_000_000, 200, 200, 0);
    List<Long> disorders = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    for (long i = 0; i < shape.elements(); i++) {
      long t = shape.timestampOf(i);
      assertTrue(t >= watermark, "element " + i + " at " + t + " is behind " + watermark);
      watermark = shape.baseMillis() + i - shape.watermarkLagMillis();
      disorders.add(shape.baseMillis() + i - t);
    }
    assertTrue(disorders.stream().allMatch(d -> d >= 0 && d < 200));
    assertTrue(new HashSet<>(disorders).size() > 150, "the disorder spreads over the window");
  }

  @Test
  void aWatermarkLagBelowTheDisorderIsRefused() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> new CounterEvents.Shape(10, 10, 0, 300, 200, 0));
    assertEquals(
        "--watermarkLagMillis (200) must be at least --maxDisorderMillis (300), or elements would"
            + " be late",
        error.getMessage());
  }

  @Test
  void unknownConfigurationIsRejectedWithTheValidNames() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> ThroughputConfiguration.parseList("off,lmdb"));
    assertTrue(
        error.getMessage().startsWith("Unknown configuration 'lmdb' in --configurations"),
        error.getMessage());
  }

  @Test
  void fewerExtractionElementsThanKeysAreRefused() {
    String[] args = {"--extractKeys=100", "--extractElements=50", "--configurations="};
    TssExportBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(TssExportBenchmark.Options.class);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> TssExportBenchmark.run(args, options));
    assertTrue(error.getMessage().startsWith("--extractElements (50)"), error.getMessage());
  }
}
