package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import io.arcon.runner.translation.PipelineTranslator;
import io.arcon.runner.translation.StatefulStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateBackendSelectionTest {
  private static final String RUNNING_SUM = "RunningSum/ParMultiDo(RunningSum)";
  private static final String STATE_FILES = "StateFiles/ParMultiDo(StateFiles)";
  private static final String GROUP = "Group";

  /** Count.perKey() is itself the Combine.PerKey, lifted and stateful under its own name. */
  private static final String COUNT = "CountPerKey";

  private static ArconPipelineOptions options(String... args) {
    ArconPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(1);
    return options;
  }

  /** Create -> RunningSum (stateful) -> StateFiles (stateful); plus Group and a lifted Count. */
  private static Pipeline pipeline(ArconPipelineOptions options, Path stateDir) {
    return pipeline(options, stateDir, "[]");
  }

  private static Pipeline pipeline(
      ArconPipelineOptions options, Path stateDir, String expectedEngineDirs) {
    Pipeline p = Pipeline.create(options);
    PCollection<KV<String, Integer>> input =
        p.apply("Input", Create.of(KV.of("a", 1), KV.of("a", 2), KV.of("b", 5)));
    PCollection<KV<String, Integer>> sums = input.apply("RunningSum", ParDo.of(new RunningSum()));
    PAssert.that(sums).containsInAnyOrder(KV.of("a", 1), KV.of("a", 3), KV.of("b", 5));
    PCollection<String> files =
        sums.apply(
            "StateFiles", ParDo.of(new StateFiles(stateDir == null ? null : stateDir.toString())));
    PAssert.that(files)
        .satisfies(
            outputs -> {
              for (String seen : outputs) {
                assertEquals(expectedEngineDirs, seen, "engine directories seen by StateFiles");
              }
              return null;
            });
    input.apply(GROUP, GroupByKey.create());
    input.apply("CountPerKey", Count.perKey());
    return p;
  }

  @Test
  void findsEveryStatefulTransformByFullName() {
    Pipeline p = pipeline(options(), null);
    assertEquals(
        List.of(RUNNING_SUM, STATE_FILES, GROUP, COUNT),
        withoutAsserts(List.copyOf(engines(p).keySet())));
  }

  @Test
  void rulesOverrideTheDefaultFirstMatchWins() {
    Pipeline p =
        pipeline(
            options(
                "--stateBackend=rocksdb", "--stateBackends=StateFiles=lmdb,*Sum*=heap,Count*=lmdb"),
            null);
    Map<String, String> engines = withoutAsserts(engines(p));
    assertEquals(
        Map.of(RUNNING_SUM, "heap", STATE_FILES, "lmdb", GROUP, "rocksdb", COUNT, "lmdb"), engines);
  }

  @Test
  void globsMatchWholeNamesOnly() {
    StateBackendSelection.Rule rule = StateBackendSelection.parseRules("Run?ingSum=lmdb").get(0);
    assertTrue(rule.matches(RUNNING_SUM), "an enclosing composite's name matches");
    assertTrue(!rule.matches("RunningSumX/ParMultiDo(X)"), "a longer name does not match");
    assertTrue(!rule.matches("Outer/RunningSum"), "a name part in the middle does not match");
    assertTrue(
        StateBackendSelection.parseRules("*/ParMultiDo(RunningSum)=heap")
            .get(0)
            .matches(RUNNING_SUM),
        "regex metacharacters in the glob match literally");
  }

  @Test
  void unknownDefaultEngineFailsAtRunListingTheValidEngines() {
    Pipeline p = pipeline(options("--stateBackend=redis"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals(
        "Unknown state backend 'redis' in --stateBackend. Valid engines: heap, rocksdb, lmdb",
        e.getMessage());
  }

  @Test
  void unknownRuleEngineFailsAtRunListingTheValidEngines() {
    Pipeline p = pipeline(options("--stateBackends=Group=rocks"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals(
        "Unknown state backend 'rocks' in --stateBackends rule 'Group=rocks'."
            + " Valid engines: heap, rocksdb, lmdb",
        e.getMessage());
  }

  @Test
  void malformedRuleFailsAtRun() {
    Pipeline p = pipeline(options("--stateBackends=Group"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertTrue(
        e.getMessage().startsWith("--stateBackends entry 'Group' is not <pattern>=<engine>"),
        e.getMessage());
  }

  @Test
  void patternMatchingNoStatefulTransformFailsListingThem() {
    // "Input" exists but is not stateful, so it must be refused too.
    Pipeline p = pipeline(options("--stateBackends=Group=lmdb,Input*=rocksdb"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    String expectedStart =
        "--stateBackends pattern 'Input*' (in 'Group=lmdb,Input*=rocksdb') matches no stateful"
            + " transform. Patterns are globs matched against a transform's full name or an"
            + " enclosing composite's name; the stateful transforms are: "
            + RUNNING_SUM
            + ", PAssert$";
    assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    for (String name : List.of(STATE_FILES, GROUP, COUNT)) {
      assertTrue(e.getMessage().contains(", " + name), e.getMessage());
    }
  }

  @Test
  void aRuleWithTheSamePatternAsAnEarlierOneIsRefusedNamingBoth() {
    Pipeline p =
        pipeline(options("--stateBackends=Group=rocksdb, Group=lmdb,CountPerKey=heap"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals(
        "--stateBackends rule 'Group=lmdb' can never apply: the earlier rule 'Group=rocksdb' has"
            + " the same pattern and the first matching rule wins (in 'Group=rocksdb,"
            + " Group=lmdb,CountPerKey=heap'). Keep one rule per pattern.",
        e.getMessage());
  }

  @Test
  void aRuleAfterAMatchAllRuleIsRefusedNamingBoth() {
    Pipeline p = pipeline(options("--stateBackends=**=rocksdb,Group=lmdb"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals(
        "--stateBackends rule 'Group=lmdb' can never apply: the earlier rule '**=rocksdb' matches"
            + " every transform and the first matching rule wins (in '**=rocksdb,Group=lmdb')."
            + " Put 'Group=lmdb' before '**=rocksdb', or drop '**=rocksdb' and give its engine as"
            + " the default with --stateBackend=rocksdb.",
        e.getMessage());
    // Overlapping rules that each apply stay allowed, and so does a match-all rule last.
    assertEquals(
        Map.of(RUNNING_SUM, "lmdb", STATE_FILES, "heap", GROUP, "rocksdb", COUNT, "rocksdb"),
        withoutAsserts(
            engines(
                pipeline(options("--stateBackends=RunningSum=lmdb,*S*=heap,*=rocksdb"), null))));
  }

  @Test
  void aRuleWhoseTransformsEarlierRulesAllTakeIsRefusedNamingBoth() {
    Pipeline p = pipeline(options("--stateBackends=Count*=rocksdb,CountPerKey=lmdb"), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::run);
    assertEquals(
        "--stateBackends rule 'CountPerKey=lmdb' never applies: earlier rules take every stateful"
            + " transform it matches ("
            + COUNT
            + " by 'Count*=rocksdb'), and the first matching rule wins (in"
            + " 'Count*=rocksdb,CountPerKey=lmdb'). Put it before them, or drop it.",
        e.getMessage());
  }

  @Test
  void aRowCacheMaximumBelowItsStartIsRefusedAtRun() {
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline(
                        options(
                            "--stateBackendOptions=rocksdb.rowCacheMaxBytes=10,"
                                + "rocksdb.rowCacheBytes=1000"),
                        null)
                    .run());
    assertEquals(
        "--stateBackendOptions: State backend option rocksdb.rowCacheMaxBytes (10) is below"
            + " rocksdb.rowCacheBytes (1000): a table's row cache starts at rocksdb.rowCacheBytes"
            + " and may grow up to rocksdb.rowCacheMaxBytes. Give rocksdb.rowCacheMaxBytes at least"
            + " 1000 (equal keeps every row cache at its start size), or lower"
            + " rocksdb.rowCacheBytes.",
        both.getMessage());
    IllegalArgumentException belowTheDefaultStart =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline(options("--stateBackendOptions=rocksdb.rowCacheMaxBytes=1048576"), null)
                    .run());
    assertTrue(
        belowTheDefaultStart
            .getMessage()
            .startsWith(
                "--stateBackendOptions: State backend option rocksdb.rowCacheMaxBytes (1048576) is"
                    + " below rocksdb.rowCacheBytes (8388608, its default)"),
        belowTheDefaultStart.getMessage());
  }

  @Test
  void chosenEnginesAreUsedAndLoggedAndAUserStateDirIsKept(@TempDir Path stateDir) {
    Pipeline p =
        pipeline(
            options(
                "--stateBackend=rocksdb",
                "--stateBackends=StateFiles=lmdb",
                "--stateDir=" + stateDir),
            stateDir,
            "[lmdb, rocksdb]");
    String log = captureStderr(() -> p.run().waitUntilFinish());
    for (String line :
        List.of(
            "State backend of '" + RUNNING_SUM + "': rocksdb (--stateBackend default)",
            "State backend of '" + STATE_FILES + "': lmdb (--stateBackends rule 'StateFiles')",
            "State backend of '" + GROUP + "': rocksdb (--stateBackend default)",
            "State backend of '" + COUNT + "': rocksdb (--stateBackend default)")) {
      assertTrue(log.contains("INFO") && log.contains(line), "log lacks <" + line + ">:\n" + log);
    }
    assertTrue(Files.isDirectory(stateDir), "a user-given --stateDir is never deleted");
    assertEquals(1, list(stateDir).size(), "one run directory under --stateDir");
  }

  @Test
  void engineOptionsWithAnUnknownKeyOrABadValueAreRefusedAtRun() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> pipeline(options("--stateBackendOptions=rocksdb.rowCacheBytez=1"), null).run());
    assertTrue(
        unknown
            .getMessage()
            .startsWith(
                "--stateBackendOptions: Unknown state backend option [rocksdb.rowCacheBytez]."
                    + " Valid option keys: lmdb.mapSizeBytes,"),
        unknown.getMessage());
    IllegalArgumentException badValue =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline(options("--stateBackendOptions=rocksdb.rowCacheBytes=lots"), null).run());
    assertTrue(
        badValue.getMessage().startsWith("--stateBackendOptions: State backend option"),
        badValue.getMessage());
    assertTrue(badValue.getMessage().contains("rocksdb.rowCacheBytes"), badValue.getMessage());
    IllegalArgumentException malformed =
        assertThrows(
            IllegalArgumentException.class,
            () -> pipeline(options("--stateBackendOptions=rocksdb.rowCacheBytes"), null).run());
    assertTrue(
        malformed
            .getMessage()
            .startsWith("--stateBackendOptions: 'rocksdb.rowCacheBytes' is not key=value."),
        malformed.getMessage());
  }

  /**
   * The options reach every backend the job opens: lmdb refuses a second table when it may hold
   * one, and with the defaults the same job runs.
   */
  @Test
  void engineOptionsReachTheBackendsOfTheJob(@TempDir Path stateDir) {
    Pipeline limited =
        pipeline(
            options(
                "--stateBackend=lmdb",
                "--stateBackendOptions=lmdb.maxTables=1",
                "--stateDir=" + stateDir.resolve("limited")),
            null);
    Throwable failure = assertThrows(RuntimeException.class, () -> limited.run().waitUntilFinish());
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    assertTrue(
        messages.toString().contains("tables and cannot create")
            && messages.toString().contains("lmdb.maxTables"),
        messages.toString());

    Pipeline tuned =
        pipeline(
            options(
                "--stateBackend=rocksdb",
                "--stateBackendOptions=rocksdb.rowCacheBytes=2048, rocksdb.rowCacheMaxBytes=4096,"
                    + "lmdb.maxTables=1",
                "--stateDir=" + stateDir.resolve("tuned")),
            null);
    String log = captureStderr(() -> tuned.run().waitUntilFinish());
    assertTrue(
        log.contains("State backend options of")
            && log.contains("rocksdb.rowCacheBytes=2048")
            && log.contains("rocksdb.rowCacheMaxBytes=4096"),
        log);
  }

  @Test
  void heapIsTheDefault(@TempDir Path stateDir) {
    Map<String, String> engines =
        withoutAsserts(engines(pipeline(options("--stateDir=" + stateDir), stateDir, "[]")));
    assertEquals(
        Map.of(RUNNING_SUM, "heap", STATE_FILES, "heap", GROUP, "heap", COUNT, "heap"), engines);
    pipeline(options("--stateDir=" + stateDir), stateDir, "[]").run().waitUntilFinish();
  }

  /** The engine of each stateful transform, by full name, as translation chose them. */
  private static Map<String, String> engines(Pipeline p) {
    Map<String, String> engines = new LinkedHashMap<>();
    for (StatefulStep step :
        PipelineTranslator.translate(
                p, (ArconPipelineOptions) p.getOptions(), new MetricsContainerStepMap())
            .statefulSteps()) {
      engines.put(step.fullName(), step.engine());
    }
    return engines;
  }

  /** The transforms of this test without the GroupByKeys PAssert adds. */
  private static List<String> withoutAsserts(List<String> names) {
    return names.stream().filter(n -> !n.startsWith("PAssert$")).toList();
  }

  private static Map<String, String> withoutAsserts(Map<String, String> engines) {
    Map<String, String> kept = new LinkedHashMap<>(engines);
    kept.keySet().removeIf(n -> n.startsWith("PAssert$"));
    return kept;
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String captureStderr(Runnable action) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    original.print(text);
    return text;
  }

  /** Keeps a per-key running sum in ValueState. */
  static final class RunningSum extends DoFn<KV<String, Integer>, KV<String, Integer>> {
    @StateId("sum")
    private final StateSpec<ValueState<Integer>> sumSpec = StateSpecs.value(VarIntCoder.of());

    @ProcessElement
    public void process(
        @Element KV<String, Integer> element,
        @StateId("sum") ValueState<Integer> sum,
        OutputReceiver<KV<String, Integer>> out) {
      int next = (sum.read() == null ? 0 : sum.read()) + element.getValue();
      sum.write(next);
      out.output(KV.of(element.getKey(), next));
    }
  }

  /**
   * Reports which engine directories exist under the state directory while this (stateful) step
   * runs, proving which engines the job really opened.
   */
  static final class StateFiles extends DoFn<KV<String, Integer>, String> {
    private final String stateDir;

    @StateId("seen")
    private final StateSpec<ValueState<Integer>> seenSpec = StateSpecs.value(VarIntCoder.of());

    StateFiles(String stateDir) {
      this.stateDir = stateDir;
    }

    @ProcessElement
    public void process(@StateId("seen") ValueState<Integer> seen, OutputReceiver<String> out) {
      seen.write(1);
      TreeSet<String> engines = new TreeSet<>();
      if (stateDir != null) {
        // walkFileTree, not Files.walk: a live RocksDB deletes files (WALs, old OPTIONS) while
        // we list, and a vanished file must be skipped, not fail the walk.
        try {
          Files.walkFileTree(
              Path.of(stateDir),
              new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                  note(d);
                  return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                  note(file);
                  return FileVisitResult.CONTINUE;
                }

                private void note(Path p) {
                  String name = p.getFileName().toString();
                  if (name.equals("rocksdb") || name.equals("lmdb")) {
                    engines.add(name);
                  }
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                  return FileVisitResult.CONTINUE;
                }
              });
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      out.output(engines.toString());
    }
  }
}
