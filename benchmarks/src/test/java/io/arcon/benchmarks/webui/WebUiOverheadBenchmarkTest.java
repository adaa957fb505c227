package io.arcon.benchmarks.webui;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark runs whole at a tiny size, so its code cannot rot; no timings checked. */
class WebUiOverheadBenchmarkTest {

  @TempDir Path temp;

  @Test
  void runsTheJobWithTheUiOffAndOnAndReports() throws Exception {
    Path results = temp.resolve("webui.txt");
    WebUiOverheadBenchmark.main(
        new String[] {
          "--parallelism=2",
          "--runs=2",
          "--elements=50000",
          "--warmupElements=10000",
          "--keys=100",
          "--scrapeMillis=5",
          "--resultsFile=" + results
        });
    String report = Files.readString(results, StandardCharsets.UTF_8);
    assertTrue(report.contains("keyed count, 50,000 elements, 100 keys"), report);
    Matcher ratio =
        Pattern.compile("\\n\\s*[0-9,]+\\s+[0-9,]+\\s+([0-9.]+)\\s+([0-9.]+) ([0-9.]+)\\n")
            .matcher(report);
    assertTrue(ratio.find(), "no on/off line with two round ratios in\n" + report);
    assertTrue(report.contains("UI reads during the runs with the UI: "), report);
  }

  @Test
  void theUiSwitchIsTheBenchmarksOwn() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WebUiOverheadBenchmark.main(new String[] {"--webUi=on"}));
    assertTrue(e.getMessage().contains("--webUi is set by the benchmark"), e.getMessage());
  }
}
