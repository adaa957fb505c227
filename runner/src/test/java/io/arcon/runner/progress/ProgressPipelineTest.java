package io.arcon.runner.progress;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runner.ArconRunner;
import io.arcon.runner.TestArconRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Progress lines of real jobs, captured through {@link ProgressOptions#getProgressStream}. */
class ProgressPipelineTest {
  private static final long WAIT_MILLIS = 120_000;

  /**
   * A progress line: job, outcome (final line only), elements, then bytes read and estimated with
   * the percentage, or "(unbounded source)", or neither.
   */
  private static final Pattern LINE =
      Pattern.compile(
          "\\[(?<job>[^\\]]+)] (?:(?<outcome>DONE|FAILED|CANCELLED): )?read (?<elements>[\\d,]+)"
              + " elements?(?<unbounded> \\(unbounded source\\))?"
              + "(?:, (?<read>[\\d.]+) (?<readUnit>[kMGT]?B) of ~(?<size>[\\d.]+)"
              + " (?<sizeUnit>[kMGT]?B) \\((?<percent>\\d+)%\\))?"
              + ", [\\d,]+ el/s, [\\d:]+ elapsed");

  @TempDir Path dir;

  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  /** Options of a job named {@code name} whose progress lines go to {@link #captured}. */
  private ArconPipelineOptions options(String name, String progress, int parallelism) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setJobName(name);
    options.setParallelism(parallelism);
    options.setTss("off");
    options.setWebUi("off");
    options.setProgress(progress);
    options.setProgressStream(new PrintStream(captured, true, UTF_8));
    return options;
  }

  private List<String> lines() {
    String text;
    synchronized (captured) {
      text = captured.toString(UTF_8);
    }
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  private static Matcher parse(String line) {
    Matcher m = LINE.matcher(line);
    assertTrue(m.matches(), "not a progress line with reads: " + line);
    return m;
  }

  private static long elements(Matcher m) {
    return Long.parseLong(m.group("elements").replace(",", ""));
  }

  private static double bytes(String number, String unit) {
    return Double.parseDouble(number) * unitBytes(unit);
  }

  private static double unitBytes(String unit) {
    return unit.equals("B") ? 1 : Math.pow(1000, "BkMGT".indexOf(unit.charAt(0)));
  }

  /** Asserts that a size shown with one decimal of its unit stands for {@code expected} bytes. */
  private static void assertShows(long expected, String number, String unit) {
    assertEquals(expected, bytes(number, unit), 0.05 * unitBytes(unit), number + " " + unit);
  }

  /** Waits for a line the predicate accepts; fails after {@link #WAIT_MILLIS}. */
  private String awaitLine(Predicate<String> wanted) throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      for (String line : lines()) {
        if (wanted.test(line)) {
          return line;
        }
      }
      Thread.sleep(20);
    }
    return fail("no such progress line within " + WAIT_MILLIS + " ms; lines: " + lines());
  }

  /**
   * A text file of lines of different lengths, some with two-byte characters, so bytes and
   * characters differ.
   */
  private Path textFile(int lines) throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      text.append("line ").append(i).append(' ').append("äx".repeat(i % 23)).append('\n');
    }
    Path file = dir.resolve("input.txt");
    Files.writeString(file, text, UTF_8);
    return file;
  }

  /** The lines of a file, counted in its bytes. */
  private static long countLines(Path file) throws Exception {
    long lines = 0;
    for (byte b : Files.readAllBytes(file)) {
      if (b == '\n') {
        lines++;
      }
    }
    return lines;
  }

  /** Takes every element, outputs nothing. */
  static final class Discard extends DoFn<String, Void> {
    @ProcessElement
    public void process(@Element String line) {}
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void theFinalLineCountsEveryLineAndReachesTheFilesSize(int parallelism) throws Exception {
    Path file = textFile(40_000);
    long expectedLines = countLines(file);
    long fileSize = Files.size(file);
    ArconPipelineOptions options = options("read-text-" + parallelism, "on", parallelism);
    Pipeline p = Pipeline.create(options);
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new Discard()));
    ReadProgress reads = ((ArconPipelineResult) p.run()).readProgress();

    List<String> lines = lines();
    assertFalse(lines.isEmpty(), "no progress line");
    Matcher last = parse(lines.get(lines.size() - 1));
    assertEquals("read-text-" + parallelism, last.group("job"));
    assertEquals("DONE", last.group("outcome"));
    assertEquals(expectedLines, elements(last));
    assertEquals("100", last.group("percent"));
    // The line rounds to one decimal of its unit.
    assertShows(fileSize, last.group("read"), last.group("readUnit"));
    assertShows(fileSize, last.group("size"), last.group("sizeUnit"));
    for (String line : lines.subList(0, lines.size() - 1)) {
      assertEquals(null, parse(line).group("outcome"), "only the last line has an outcome");
    }

    ReadProgress.Totals totals = reads.total();
    assertEquals(expectedLines, totals.elements());
    assertEquals(fileSize, totals.bytesRead());
    assertEquals(fileSize, totals.estimatedBytes());
    assertEquals(parallelism, totals.sources());
  }

  /** Blocks the first instance's element number {@link #at} until {@link #release} opens. */
  static final class Pause extends DoFn<String, Void> {
    static volatile CountDownLatch release = new CountDownLatch(0);
    private final int at;
    private transient int seen;

    Pause(int at) {
      this.at = at;
    }

    @ProcessElement
    public void process(@Element String line) throws InterruptedException {
      if (++seen == at && !release.await(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("the test never released the pipeline");
      }
    }
  }

  @Test
  void whileTheJobReadsLinesShowThePartRead() throws Exception {
    int totalLines = 40_000;
    Path file = textFile(totalLines);
    long fileSize = Files.size(file);
    ArconPipelineOptions options = options("paused", "on", 2);
    options.setRunner(ArconRunner.class);
    options.setProgressPeriodMillis(100L);
    Pause.release = new CountDownLatch(1);
    Pipeline p = Pipeline.create(options);
    // Each instance blocks at its 5,000th line, about halfway through its half of the file, until
    // the test has seen a progress line with reads.
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new Pause(5_000)));
    PipelineResult result = p.run();
    String running;
    try {
      running =
          awaitLine(
              line -> line.startsWith("[paused] read ") && !line.startsWith("[paused] read 0 "));
    } finally {
      Pause.release.countDown();
    }
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish(Duration.standardMinutes(2)));

    Matcher m = parse(running);
    assertEquals(null, m.group("outcome"));
    assertTrue(elements(m) > 0 && elements(m) < totalLines, running);
    int percent = Integer.parseInt(m.group("percent"));
    assertTrue(percent < 100, running);
    assertTrue(bytes(m.group("read"), m.group("readUnit")) < fileSize, running);
    assertShows(fileSize, m.group("size"), m.group("sizeUnit"));

    List<String> lines = lines();
    Matcher last = parse(lines.get(lines.size() - 1));
    assertEquals("DONE", last.group("outcome"));
    assertEquals(totalLines, elements(last));
  }

  @Test
  void offPrintsNothingButTheSourcesStillCount() throws Exception {
    Path file = textFile(5_000);
    ArconPipelineOptions options = options("quiet", "off", 2);
    Pipeline p = Pipeline.create(options);
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new Discard()));
    ReadProgress reads = ((ArconPipelineResult) p.run()).readProgress();
    assertEquals(List.of(), lines());
    assertEquals(countLines(file), reads.total().elements());
  }

  @Test
  void autoIsQuietWithoutATerminal() throws Exception {
    assumeTrue(System.console() == null, "this JVM has a terminal");
    Path file = textFile(100);
    ArconPipelineOptions options = options("auto", "auto", 1);
    Pipeline p = Pipeline.create(options);
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new Discard()));
    p.run();
    assertEquals(List.of(), lines());
  }

  @Test
  void aBadModeIsRefusedBeforeTheJobStarts() {
    ArconPipelineOptions options =
        PipelineOptionsFactory.fromArgs("--progress=always", "--tss=off")
            .as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    Pipeline p = Pipeline.create(options);
    p.apply(GenerateSequence.from(0).to(10));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertTrue(e.getMessage().startsWith("--progress must be auto, on or off"), e.getMessage());
    assertTrue(e.getMessage().contains("'always'"), e.getMessage());
  }

  /** Fails once, at element {@link #at} of an instance, in the whole test run. */
  static final class FailOnce extends DoFn<String, Void> {
    static final AtomicBoolean failed = new AtomicBoolean();
    private final int at;
    private transient int seen;

    FailOnce(int at) {
      this.at = at;
    }

    @ProcessElement
    public void process(@Element String line) {
      if (++seen == at && failed.compareAndSet(false, true)) {
        throw new IllegalStateException("planned failure");
      }
    }
  }

  @Test
  void aRestartedJobCountsTheLinesOfTheAttemptThatFinished() throws Exception {
    Path file = textFile(20_000);
    ArconPipelineOptions options = options("restarted", "on", 2);
    options.setNumberOfExecutionRetries(1);
    options.setExecutionRetryDelay(0L);
    FailOnce.failed.set(false);
    Pipeline p = Pipeline.create(options);
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new FailOnce(3_000)));
    ReadProgress reads = ((ArconPipelineResult) p.run()).readProgress();
    assertTrue(FailOnce.failed.get(), "the first attempt did not fail");
    List<String> lines = lines();
    Matcher last = parse(lines.get(lines.size() - 1));
    assertEquals("DONE", last.group("outcome"));
    // Without checkpoints the second attempt reads the file again; the first one's reads are gone.
    assertEquals(countLines(file), elements(last));
    assertEquals(Files.size(file), reads.total().bytesRead());
  }

  /** Fails at element {@link #at}. */
  static final class FailAt extends DoFn<String, Void> {
    private final int at;
    private transient int seen;

    FailAt(int at) {
      this.at = at;
    }

    @ProcessElement
    public void process(@Element String line) {
      if (++seen == at) {
        throw new IllegalStateException("bad line " + line);
      }
    }
  }

  @Test
  void aFailedJobEndsWithAFailedLine() throws Exception {
    Path file = textFile(5_000);
    ArconPipelineOptions options = options("failing", "on", 1);
    Pipeline p = Pipeline.create(options);
    p.apply(TextIO.read().from(file.toString())).apply(ParDo.of(new FailAt(1_000)));
    assertThrows(Pipeline.PipelineExecutionException.class, p::run);
    List<String> lines = lines();
    Matcher last = parse(lines.get(lines.size() - 1));
    assertEquals("FAILED", last.group("outcome"));
    assertTrue(elements(last) < countLines(file), lines.get(lines.size() - 1));
  }

  @Test
  void aStreamingJobShowsWhatItReadWithoutPercentage() throws Exception {
    ArconPipelineOptions options = options("stream", "on", 2);
    options.setRunner(ArconRunner.class);
    options.setProgressPeriodMillis(100L);
    Pipeline p = Pipeline.create(options);
    p.apply(GenerateSequence.from(0).withRate(2_000, Duration.standardSeconds(1)));
    PipelineResult result = p.run();
    String running;
    try {
      running =
          awaitLine(
              line -> line.startsWith("[stream] read ") && !line.startsWith("[stream] read 0 "));
    } finally {
      result.cancel();
    }
    assertEquals(
        PipelineResult.State.CANCELLED, result.waitUntilFinish(Duration.standardMinutes(1)));
    Matcher m = parse(running);
    assertEquals(" (unbounded source)", m.group("unbounded"));
    assertEquals(null, m.group("percent"));

    List<String> lines = lines();
    Matcher last = parse(lines.get(lines.size() - 1));
    assertEquals("CANCELLED", last.group("outcome"));
    assertEquals(" (unbounded source)", last.group("unbounded"));
    assertEquals(null, last.group("percent"));
    assertTrue(elements(last) >= elements(m), lines.toString());
  }
}
