package io.arcon.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateTableTest {
  record Row(String name, List<Double> rates, List<Double> steadyRates) implements MeasuredRates {}

  @Test
  void withoutSteadyRatesTheTableHasTwoRateColumns() {
    StringBuilder out = new StringBuilder();
    boolean steady =
        RateTable.append(
            out,
            1_000,
            6,
            8,
            List.of(new Row("a", List.of(1_000.0, 3_000.0), List.of())),
            Row::name);
    assertFalse(steady);
    String n = System.lineSeparator();
    assertEquals(
        "configuration best el/s mean el/s" + n + "a         3,000    2,000" + n, out.toString());
  }

  @Test
  void steadyColumnsComeWithTheirLineAndANaNForARowWithoutThem() {
    StringBuilder out = new StringBuilder();
    boolean steady =
        RateTable.append(
            out,
            1_000,
            4,
            11,
            List.of(
                new Row("a", List.of(2.0), List.of(5.0, Double.NaN, 7.0)),
                new Row("b", List.of(4.0), List.of())),
            Row::name);
    assertTrue(steady);
    String[] lines = out.toString().split(System.lineSeparator());
    assertEquals(SteadyStateRate.reportLine(1_000).strip(), lines[0]);
    assertEquals("configuration   best el/s   mean el/s steady best steady mean", lines[1]);
    assertEquals("a              2           2           7           6", lines[2]);
    assertEquals("b              4           4         NaN         NaN", lines[3]);
  }
}
