package io.arcon.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyStateRateTest {

  @Test
  void aFixedCostCancels() {
    // 1 s to start and stop, then 10M el/s: the whole runs read 3.33M and 6.67M el/s.
    double shortSeconds = 1.0 + 5_000_000 / 10e6;
    double seconds = 1.0 + 20_000_000 / 10e6;
    assertEquals(10e6, SteadyStateRate.of(5_000_000, shortSeconds, 20_000_000, seconds), 1e-3);
  }

  @Test
  void theReportLineNamesTheShortRunAndTheFormula() {
    assertEquals(
        "steady state: each measured run was preceded by one of 5,000,000 elements; steady el/s ="
            + " (20,000,000 - 5,000,000) / (measured s - short s), start and stop costs left out"
            + System.lineSeparator(),
        SteadyStateRate.reportLine(20_000_000));
  }

  @Test
  void theShortRunIsAQuarter() {
    assertEquals(5_000_000, SteadyStateRate.shortElements(20_000_000));
    assertEquals(1, SteadyStateRate.shortElements(3));
  }

  @Test
  void aLongRunNoSlowerThanTheShortOneGivesNoRate() {
    assertTrue(Double.isNaN(SteadyStateRate.of(1_000, 0.5, 4_000, 0.5)));
    assertTrue(Double.isNaN(SteadyStateRate.of(1_000, 0.6, 4_000, 0.5)));
  }

  @Test
  void bestAndMeanLeaveOutPairsWithoutARate() {
    List<Double> rates = List.of(2.0, Double.NaN, 4.0);
    assertEquals(4.0, SteadyStateRate.best(rates));
    assertEquals(3.0, SteadyStateRate.mean(rates));
    assertTrue(Double.isNaN(SteadyStateRate.mean(List.of(Double.NaN))));
  }

  @Test
  void aShortRunAsLongAsTheMeasuredOneIsRefused() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> SteadyStateRate.of(10, 1, 10, 2));
    assertEquals(
        "the short run (10 elements) must be shorter than the measured run (10)",
        error.getMessage());
  }
}
