package io.arcon.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The table a throughput report prints: a line of headings, then a row per configuration with its
 * best and mean whole-run rates and, when any row measured them, its steady-state best and mean
 * ({@link SteadyStateRate}), preceded by the line that says how they were measured.
 */
public final class RateTable {
  private RateTable() {}

  /**
   * Appends the table of {@code rows} to {@code out}.
   *
   * @param elements elements of each measured run (for the steady-state line)
   * @param labelWidth width of the configuration column
   * @param numberWidth width of each rate column
   * @param label a row's configuration name
   * @return whether steady-state columns were printed
   */
  public static <M extends MeasuredRates> boolean append(
      StringBuilder out,
      long elements,
      int labelWidth,
      int numberWidth,
      List<M> rows,
      Function<? super M, String> label) {
    boolean steady = rows.stream().anyMatch(m -> !m.steadyRates().isEmpty());
    if (steady) {
      out.append(SteadyStateRate.reportLine(elements));
    }
    String text = "%" + numberWidth + "s";
    String number = "%," + numberWidth + ".0f";
    String labelColumn = "%-" + labelWidth + "s";
    out.append(String.format(Locale.ROOT, labelColumn, "configuration"))
        .append(String.format(Locale.ROOT, " " + text + " " + text, "best el/s", "mean el/s"));
    if (steady) {
      out.append(String.format(Locale.ROOT, " " + text + " " + text, "steady best", "steady mean"));
    }
    out.append(System.lineSeparator());
    for (M m : rows) {
      out.append(String.format(Locale.ROOT, labelColumn, label.apply(m)))
          .append(String.format(Locale.ROOT, " " + number + " " + number, m.best(), m.mean()));
      if (steady) {
        out.append(
            String.format(
                Locale.ROOT, " " + number + " " + number, m.steadyBest(), m.steadyMean()));
      }
      out.append(System.lineSeparator());
    }
    return steady;
  }
}
