package io.arcon.runner.tss;

import static io.arcon.runner.tss.TssTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TSS on a running pipeline, end to end, against an oracle computed from the raw input: a scripted
 * out-of-order stream (events exactly at T and T-1 ms, late events, keys on both instances) feeds
 * an exact state ({@code @RequiresTimeSortedInput} sum per key) and a watermark-cut state (count
 * per key) at parallelism 2; the pipeline registers with an embedded control plane it starts
 * itself; TSSs are created before the data passes and after it passed (T in the past); every
 * committed Parquet file is read back with DuckDB and compared row by row (key, value, updated_at,
 * version) with the oracle.
 */
class TssOracleTest {
  private static final long BASE = Instant.parse("2026-12-02T13:00:00Z").toEpochMilli();
  private static final long[] VERSIONS = {BASE + 10_000, BASE + 20_000, BASE + 30_000};
  private static final List<String> KEYS = ClickScript.KEYS;

  private static final java.util.concurrent.atomic.AtomicInteger RUNS =
      new java.util.concurrent.atomic.AtomicInteger();
  private static Path home;
  private static int port;
  private static TssClient client;

  @BeforeAll
  static void controlPlaneAddress() throws IOException {
    // Versions are read in chunks of 3 keys: every read crosses chunks and instances.
    PipelineStateSource.cellsPerChunk = 3;
    home = Files.createTempDirectory("tss-oracle-");
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
  }

  @AfterAll
  static void closeClient() {
    PipelineStateSource.cellsPerChunk = PipelineStateSource.CELLS_PER_CHUNK;
    if (client != null) {
      client.close();
    }
  }

  /** Exact: the sum per key, input sorted by event time. */
  static final class SumPerKey extends DoFn<KV<String, Long>, Void> {
    @StateId("total")
    private final StateSpec<ValueState<Long>> total = StateSpecs.value();

    @RequiresTimeSortedInput
    @ProcessElement
    public void process(@Element KV<String, Long> e, @StateId("total") ValueState<Long> total) {
      Long sum = total.read();
      total.write((sum == null ? 0 : sum) + e.getValue());
    }
  }

  /** The same sum without the annotation: exact because --tssExport selects it. */
  static final class SumSelectedByExport extends DoFn<KV<String, Long>, Void> {
    @StateId("exported_total")
    private final StateSpec<ValueState<Long>> total = StateSpecs.value();

    @ProcessElement
    public void process(
        @Element KV<String, Long> e, @StateId("exported_total") ValueState<Long> total) {
      Long sum = total.read();
      total.write((sum == null ? 0 : sum) + e.getValue());
    }
  }

  /** Watermark cut: events per key, in arrival order (late ones too: the window is global). */
  static final class CountHits extends DoFn<KV<String, Long>, Void> {
    @StateId("hits")
    private final StateSpec<ValueState<Long>> hits = StateSpecs.value();

    @ProcessElement
    public void process(@StateId("hits") ValueState<Long> hits) {
      Long n = hits.read();
      hits.write((n == null ? 0 : n) + 1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void committedVersionsEqualTheOracle(String engine) throws Exception {
    String app = "oracle_" + engine + RUNS.incrementAndGet();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    ClickScript script = heldAfterTheSecondVersion(13, start, resume);
    assertKeysOnBothInstances();

    ArconPipelineOptions options = appOptions(app, engine);
    options.setTssExport("Exported");
    Pipeline p = Pipeline.create(options);
    PCollection<KV<String, Long>> clicks =
        p.apply(Read.from(new ScriptedClicks(app, script.steps)));
    clicks.apply("Total", ParDo.of(new SumPerKey()));
    clicks.apply("Hits", ParDo.of(new CountHits()));
    clicks.apply("Exported", ParDo.of(new SumSelectedByExport()));
    PipelineResult result = p.run();
    try {
      TssClient tss = client();
      awaitRegistered(tss, app);
      AppInfo info = tss.describeApp(app);
      assertEquals(Consistency.EXACT, state(info, "total").getConsistency());
      assertEquals(Consistency.WATERMARK_CUT, state(info, "hits").getConsistency());
      assertEquals(Consistency.EXACT, state(info, "exported_total").getConsistency());
      assertEquals(engine, state(info, "total").getBackend());

      String period =
          " AT '2026-12-02 13:00:10' TIME ZONE 'UTC' FOR EACH 10 SECONDS"
              + " UNTIL '2026-12-02 13:00:30';";
      tss.execute(
          "CREATE TSS before_"
              + app
              + " AS EXTRACT "
              + app
              + ".total, "
              + app
              + ".hits, "
              + app
              + ".exported_total"
              + period);
      // The watermark-cut state is recorded from when the TSS reads it: before the first event.
      awaitHistory(tss, app, "hits", "recording");
      awaitHistory(tss, app, "total", "kept");
      awaitWatermark(tss, app, script.preludeWatermark);
      start.countDown();
      // The source stops at the second gate once the watermark passed the second version.
      awaitCommitted(tss, "before_" + app, VERSIONS[1], result);
      tss.execute("CREATE TSS after_" + app + " AS EXTRACT " + app + ".total" + period);
      // A watermark cut has no history from before a TSS read it: an AT the watermark passed is
      // refused, while the exact state's is read from its chains.
      TssClientException past =
          assertThrows(
              TssClientException.class,
              () ->
                  tss.execute("CREATE TSS late_" + app + " AS EXTRACT " + app + ".hits" + period));
      assertEquals(Status.Code.OUT_OF_RANGE, past.code());
      assertTrue(past.getMessage().contains("is a watermark cut"), past.getMessage());
      String oneKey = KEYS.get(1);
      tss.execute(
          "CREATE TSS onekey_"
              + app
              + " AS EXTRACT "
              + app
              + ".total ON KEY '"
              + oneKey
              + "' AT '2026-12-02 13:00:20' TIME ZONE 'UTC';");
      resume.countDown();
      assertEquals(PipelineResult.State.DONE, result.waitUntilFinish(Duration.standardMinutes(3)));

      for (long version : VERSIONS) {
        List<ClickScript.Row> exact = script.exactSums(version);
        List<ClickScript.Row> before = read(tss, "before_" + app, version, app, "total");
        assertEquals(
            exact,
            before,
            () ->
                "exact state at "
                    + Instant.ofEpochMilli(version)
                    + script.explainExactDifference(exact, before, version));
        List<ClickScript.Row> after = read(tss, "after_" + app, version, app, "total");
        assertEquals(
            exact,
            after,
            () ->
                "a TSS created after T passed reads the same version"
                    + script.explainExactDifference(exact, after, version));
        List<ClickScript.Row> exported = read(tss, "before_" + app, version, app, "exported_total");
        assertEquals(
            exact,
            exported,
            () ->
                "--tssExport makes a DoFn without the annotation exact too"
                    + script.explainExactDifference(exact, exported, version));
        List<ClickScript.Row> cut = read(tss, "before_" + app, version, app, "hits");
        assertTrue(
            script.isCutAtOrAfter(cut, version, TssOracleTest::ownerOf),
            "watermark cut at "
                + Instant.ofEpochMilli(version)
                + " is no cut of the stream at or"
                + " after the watermark passed it: "
                + cut
                + ", expected at least "
                + script.cutCounts(version));
        assertEquals("exact", consistencyOf(tss, "before_" + app, version, app, "total"));
        assertEquals("watermark_cut", consistencyOf(tss, "before_" + app, version, app, "hits"));
      }
      assertEquals(
          script.exactSums(VERSIONS[1]).stream().filter(r -> r.key().equals(oneKey)).toList(),
          read(tss, "onekey_" + app, VERSIONS[1], app, "total"));
    } finally {
      start.countDown();
      resume.countDown();
      if (result.getState() == PipelineResult.State.RUNNING) {
        result.cancel();
      }
    }
  }

  @Test
  void aRunningPipelinePrunesItsHistoryAndTheControlPlaneRefusesWhatWasPruned() throws Exception {
    String app = "pruned" + RUNS.incrementAndGet();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    ClickScript script = heldAfterTheSecondVersion(29, start, resume);
    ArconPipelineOptions options = appOptions(app, "heap");
    options.setStateHistory("PT2S");
    Pipeline p = Pipeline.create(options);
    p.apply(Read.from(new ScriptedClicks(app, script.steps)))
        .apply("Total", ParDo.of(new SumPerKey()));
    PipelineResult result = p.run();
    try {
      TssClient tss = client();
      awaitRegistered(tss, app);
      awaitWatermark(tss, app, script.preludeWatermark);
      start.countDown();
      // The source holds once the watermark passed the second version: the history behind the
      // watermark by more than 2 s is pruned, on whole seconds.
      script.reached(1).await();
      long deadline = System.currentTimeMillis() + 60_000;
      Instant historyFrom = null;
      while (System.currentTimeMillis() < deadline) {
        AppSummary summary =
            tss.showApps().stream().filter(a -> a.getName().equals(app)).findFirst().orElseThrow();
        if (summary.hasHistoryFrom()) {
          historyFrom = ProtoTime.toInstant(summary.getHistoryFrom());
          if (historyFrom.toEpochMilli() >= VERSIONS[1] - 3_000) {
            break;
          }
        }
        Thread.sleep(20);
      }
      assertTrue(
          historyFrom != null && historyFrom.toEpochMilli() >= VERSIONS[1] - 3_000,
          "the app's history horizon follows its watermark: " + historyFrom);
      assertTrue(historyFrom.toEpochMilli() <= VERSIONS[1], "and stays 2 s behind it");
      assertEquals(0, historyFrom.toEpochMilli() % 1000, "on a whole second (a segment boundary)");

      TssClientException pruned =
          assertThrows(
              TssClientException.class,
              () ->
                  tss.execute(
                      "CREATE TSS old_"
                          + app
                          + " AS EXTRACT "
                          + app
                          + ".total AT '2026-12-02 13:00:10' TIME ZONE 'UTC';"));
      assertEquals(Status.Code.OUT_OF_RANGE, pruned.code());
      assertTrue(pruned.getMessage().contains("keeps state history from"), pruned.getMessage());

      tss.execute(
          "CREATE TSS kept_"
              + app
              + " AS EXTRACT "
              + app
              + ".total AT '2026-12-02 13:00:20' TIME ZONE 'UTC';");
      awaitCommitted(tss, "kept_" + app, VERSIONS[1], result);
      assertEquals(
          script.exactSums(VERSIONS[1]),
          read(tss, "kept_" + app, VERSIONS[1], app, "total"),
          "the version at the horizon's segment replays from the folded base");
      resume.countDown();
      assertEquals(PipelineResult.State.DONE, result.waitUntilFinish(Duration.standardMinutes(3)));
    } finally {
      start.countDown();
      resume.countDown();
      if (result.getState() == PipelineResult.State.RUNNING) {
        result.cancel();
      }
    }
  }

  /** Clicks from {@link #BASE}, held at the start and once the watermark passed VERSIONS[1]. */
  private static ClickScript heldAfterTheSecondVersion(
      long seed, CountDownLatch start, CountDownLatch resume) {
    return new ClickScript(
        seed, BASE, 400, VERSIONS, new CountDownLatch[] {start, resume}, new long[] {VERSIONS[1]});
  }

  /** ArconRunner at parallelism 2 on {@code engine}, registered with the test's control plane. */
  private static ArconPipelineOptions appOptions(String app, String engine) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setJobName(app);
    options.setParallelism(2);
    options.setStateBackend(engine);
    options.setTss("on");
    options.setTssEndpoint("127.0.0.1:" + port);
    options.setTssHome(home.toString());
    return options;
  }

  private static int ownerOf(String key) {
    try {
      return KeyGroups.instanceForKey(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), key), 2);
    } catch (org.apache.beam.sdk.coders.CoderException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void assertKeysOnBothInstances() throws Exception {
    TreeSet<Integer> owners = new TreeSet<>();
    for (String k : KEYS) {
      owners.add(
          KeyGroups.instanceForKey(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), k), 2));
    }
    assertEquals(2, owners.size(), "the keys must spread over both instances");
  }

  private static synchronized TssClient client() {
    if (client == null) {
      client = TssClient.connect("127.0.0.1", port, null);
    }
    return client;
  }
}
