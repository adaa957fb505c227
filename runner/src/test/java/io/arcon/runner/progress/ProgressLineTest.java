package io.arcon.runner.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runtime.job.JobMonitor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProgressLineTest {

  @Test
  void aBoundedJobsLineShowsElementsBytesOfTheEstimatePercentRateAndElapsed() {
    // The example line of issue 17.
    ReadProgress.Totals totals =
        new ReadProgress.Totals(4, false, 1_234_567, 98_100_000, 250_000_000);
    assertEquals(
        "[job] read 1,234,567 elements, 98.1 MB of ~250.0 MB (39%), 412,000 el/s, 00:03 elapsed",
        ProgressLine.running("job", totals, 412_000.4, 3_200));
  }

  @Test
  void withoutAnEstimateBytesAreShownAlone() {
    ReadProgress.Totals totals = new ReadProgress.Totals(1, false, 10, 2_500, -1);
    assertEquals(
        "[j] read 10 elements, 2.5 kB, 5 el/s, 00:02 elapsed",
        ProgressLine.running("j", totals, 5, 2_000));
  }

  @Test
  void withoutBytesOnlyElementsAreShown() {
    ReadProgress.Totals totals = new ReadProgress.Totals(1, false, 1, -1, 700);
    assertEquals(
        "[j] read 1 element, 0 el/s, 00:00 elapsed", ProgressLine.running("j", totals, 0, 10));
  }

  @Test
  void aStreamingJobSaysWhatItReadWithoutSizeOrPercentage() {
    ReadProgress.Totals totals = new ReadProgress.Totals(2, true, 5_000, -1, -1);
    assertEquals(
        "[s] read 5,000 elements (unbounded source), 1,000 el/s, 01:05 elapsed",
        ProgressLine.running("s", totals, 999.6, 65_000));
  }

  @Test
  void aJobWithoutReportingSourcesOnlySaysItRuns() {
    ReadProgress.Totals none = new ReadProgress.Totals(0, false, 0, 0, 0);
    assertEquals("[j] running, 00:07 elapsed", ProgressLine.running("j", none, 0, 7_999));
    assertEquals(
        "[j] CANCELLED, 00:07 elapsed",
        ProgressLine.ended("j", JobMonitor.Outcome.CANCELLED, none, 7_000));
  }

  @Test
  void theFinalLineNamesTheOutcomeAndAveragesTheRateOverTheRun() {
    ReadProgress.Totals totals = new ReadProgress.Totals(2, false, 3_000, 1_000_000, 1_000_000);
    assertEquals(
        "[j] DONE: read 3,000 elements, 1.0 MB of ~1.0 MB (100%), 1,500 el/s, 00:02 elapsed",
        ProgressLine.ended("j", JobMonitor.Outcome.DONE, totals, 2_000));
    ReadProgress.Totals partial = new ReadProgress.Totals(2, false, 3_000, 250_000, 1_000_000);
    assertEquals(
        "[j] FAILED: read 3,000 elements, 250.0 kB of ~1.0 MB (25%), 750 el/s, 00:04 elapsed",
        ProgressLine.ended("j", JobMonitor.Outcome.FAILED, partial, 4_000));
  }

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "999, 999",
    "1000, '1,000'",
    "1234567, '1,234,567'",
    "-5, -5",
  })
  void countsUseCommasInEveryLocale(long n, String expected) {
    assertEquals(expected, ProgressLine.count(n));
  }

  @ParameterizedTest
  @CsvSource({
    "0, 0 B",
    "999, 999 B",
    "1000, 1.0 kB",
    "1049, 1.0 kB",
    "1050, 1.1 kB",
    "999949, 999.9 kB",
    // would round to 1000.0 kB: shown in the next unit
    "999950, 1.0 MB",
    "98100000, 98.1 MB",
    "250000000000, 250.0 GB",
    "3000000000000000, 3.0 PB",
    "9223372036854775807, 9.2 EB",
  })
  void bytesUseDecimalUnitsWithOneDecimal(long n, String expected) {
    assertEquals(expected, ProgressLine.bytes(n));
  }

  @ParameterizedTest
  @CsvSource({
    "0, 00:00",
    "999, 00:00",
    "3000, 00:03",
    "754000, 12:34",
    "3599999, 59:59",
    "3600000, 1:00:00",
    "3723000, 1:02:03",
    "90000000, 25:00:00",
    "-10, 00:00",
  })
  void elapsedTimeIsMinutesAndSecondsThenHours(long millis, String expected) {
    assertEquals(expected, ProgressLine.elapsed(millis));
  }
}
