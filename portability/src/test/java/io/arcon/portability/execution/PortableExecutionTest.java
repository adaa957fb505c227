package io.arcon.portability.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.ExperimentalOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.FlatMapElements;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.util.construction.Environments;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.PipelineTranslation;
import org.apache.beam.sdk.util.construction.SdkComponents;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** Java pipelines as portable protos, run by the executor with the EMBEDDED SDK harness. */
class PortableExecutionTest implements java.io.Serializable {
  static final Queue<String> OUT = new ConcurrentLinkedQueue<>();

  private static PortablePipelineOptions options() {
    PortablePipelineOptions options =
        PipelineOptionsFactory.create().as(PortablePipelineOptions.class);
    options.setDefaultEnvironmentType(Environments.ENVIRONMENT_EMBEDDED);
    options.as(ExperimentalOptions.class).setExperiments(List.of("beam_fn_api"));
    options.setJobName("portable-test");
    options.setRunner(io.arcon.runner.ArconRunner.class);
    return options;
  }

  private static PortableJob start(Pipeline p) {
    SdkComponents components = SdkComponents.create(p.getOptions());
    RunnerApi.Pipeline proto = PipelineTranslation.toProto(p, components, false);
    return PortablePipelineExecutor.start(
        new PortableJobSpec(
            "job-" + System.nanoTime(),
            "portable-test",
            proto,
            PipelineOptionsTranslation.toProto(p.getOptions()),
            ""));
  }

  private static PipelineResult.State await(PortableJob job) throws Exception {
    PipelineResult.State state = job.termination().get(120, TimeUnit.SECONDS);
    if (state == PipelineResult.State.FAILED) {
      throw new AssertionError("job failed", job.failure());
    }
    return state;
  }

  static final class Collect extends DoFn<Object, Void> {
    @ProcessElement
    public void process(@Element Object e) {
      OUT.add(String.valueOf(e));
    }
  }

  @Test
  void wordCountRunsThroughTheSdkHarness() throws Exception {
    OUT.clear();
    List<String> lines = List.of("a b c", "b c", "c", "d a");
    Pipeline p = Pipeline.create(options());
    p.apply(Create.of(lines))
        .apply(
            FlatMapElements.into(TypeDescriptors.strings()).via(l -> Arrays.asList(l.split(" "))))
        .apply(Count.perElement())
        .apply(
            MapElements.into(TypeDescriptors.strings())
                .via(kv -> kv.getKey() + "=" + kv.getValue()))
        .apply(ParDo.of(new Collect()));
    assertEquals(PipelineResult.State.DONE, await(start(p)));
    Map<String, Long> expected =
        lines.stream()
            .flatMap(l -> Arrays.stream(l.split(" ")))
            .collect(Collectors.groupingBy(w -> w, TreeMap::new, Collectors.counting()));
    assertEquals(
        expected.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList(),
        OUT.stream().sorted().toList());
  }

  @Test
  void sideInputsReachTheHarness() throws Exception {
    OUT.clear();
    Pipeline p = Pipeline.create(options());
    PCollectionView<List<Long>> side = p.apply("side", Create.of(1L, 2L, 3L)).apply(View.asList());
    p.apply("main", Create.of("x", "y"))
        .apply(
            ParDo.of(
                    new DoFn<String, String>() {
                      @ProcessElement
                      public void process(ProcessContext c) {
                        long sum = c.sideInput(side).stream().mapToLong(Long::longValue).sum();
                        c.output(c.element() + sum);
                      }
                    })
                .withSideInputs(side))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    assertEquals(List.of("x6", "y6"), OUT.stream().sorted().toList());
  }

  /**
   * A side input with a trigger of its own is seen pane by pane, the newest pane replacing the one
   * before (as Beam's classic runners materialize views): a singleton view of a discarding,
   * per-element-triggered sum holds one value, one of the sums fired — never several values.
   */
  @Test
  void aTriggeredSideInputIsSeenAsItsNewestPane() throws Exception {
    OUT.clear();
    Pipeline p = Pipeline.create(options());
    PCollectionView<Long> side =
        p.apply("side", Create.of(1L, 2L, 3L, 4L, 5L))
            .apply(
                Window.<Long>into(new GlobalWindows())
                    .triggering(Repeatedly.forever(AfterPane.elementCountAtLeast(1)))
                    .withAllowedLateness(Duration.ZERO)
                    .discardingFiredPanes())
            .apply(Combine.globally(Sum.ofLongs()).withoutDefaults().asSingletonView());
    p.apply("main", Create.of("x"))
        .apply(
            ParDo.of(
                    new DoFn<String, String>() {
                      @ProcessElement
                      public void process(ProcessContext c) {
                        c.output(c.element() + c.sideInput(side));
                      }
                    })
                .withSideInputs(side))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    List<String> out = List.copyOf(OUT);
    assertEquals(1, out.size(), "outputs: " + out);
    long sum = Long.parseLong(out.get(0).substring(1));
    assertTrue(sum >= 1 && sum <= 15, "a sum of fired elements: " + out);
  }

  @Test
  void userStateIsKeptPerKey() throws Exception {
    OUT.clear();
    Pipeline p = Pipeline.create(options());
    PCollection<KV<String, Long>> in =
        p.apply(
            Create.of(KV.of("a", 1L), KV.of("b", 10L), KV.of("a", 2L), KV.of("a", 3L))
                .withCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())));
    in.apply(
            ParDo.of(
                new DoFn<KV<String, Long>, String>() {
                  @StateId("sum")
                  private final StateSpec<ValueState<Long>> sum =
                      StateSpecs.value(VarLongCoder.of());

                  @ProcessElement
                  public void process(
                      @Element KV<String, Long> e,
                      @StateId("sum") ValueState<Long> sum,
                      OutputReceiver<String> out) {
                    long s = (sum.read() == null ? 0 : sum.read()) + e.getValue();
                    sum.write(s);
                    out.output(e.getKey() + ":" + s);
                  }
                }))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    List<String> out = OUT.stream().sorted().toList();
    assertTrue(out.contains("a:6"), out.toString());
    assertTrue(out.contains("b:10"), out.toString());
    assertEquals(4, out.size(), out.toString());
  }

  static final java.util.concurrent.atomic.AtomicInteger FINALIZED =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * With epochs, bundles finalize when their epoch completes, several at a time: each request needs
   * its own instruction id, or the harness's answers after the first are dropped and the stage
   * waits a minute for each (an unbounded read then stalled).
   */
  @Test
  void bundlesFinalizeAtEveryEpochWithoutStalling() throws Exception {
    FINALIZED.set(0);
    PortablePipelineOptions options = options();
    options.as(io.arcon.runner.ArconPipelineOptions.class).setCheckpointingInterval(100L);
    options.as(io.arcon.runner.ArconPipelineOptions.class).setParallelism(2);
    Pipeline p = Pipeline.create(options);
    p.apply(
            org.apache.beam.sdk.io.GenerateSequence.from(0)
                .withRate(500, Duration.standardSeconds(1)))
        .apply(
            ParDo.of(
                new DoFn<Long, Void>() {
                  @ProcessElement
                  public void process(@Element Long e, BundleFinalizer finalizer) {
                    finalizer.afterBundleCommit(
                        org.joda.time.Instant.now().plus(Duration.standardMinutes(5)),
                        FINALIZED::incrementAndGet);
                  }
                }));
    PortableJob job = start(p);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (FINALIZED.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(FINALIZED.get() > 0, "no bundle finalized in 60 s (state " + job.state() + ")");
      // Epochs every 100 ms: callbacks keep coming, not one batch and then a wait for answers.
      List<Integer> perSecond = new java.util.ArrayList<>();
      for (int second = 0; second < 4; second++) {
        int before = FINALIZED.get();
        Thread.sleep(1_000);
        perSecond.add(FINALIZED.get() - before);
      }
      assertTrue(
          perSecond.stream().allMatch(n -> n > 0),
          "bundles finalized per second after the first: " + perSecond);
    } finally {
      job.cancel();
      job.termination().get(120, TimeUnit.SECONDS);
    }
  }

  @Test
  void epochSnapshotsTakeStagesWithSideInputsAndState() throws Exception {
    OUT.clear();
    PortablePipelineOptions options = options();
    options.as(io.arcon.runner.ArconPipelineOptions.class).setCheckpointingInterval(20L);
    Pipeline p = Pipeline.create(options);
    PCollectionView<List<Long>> side = p.apply("side", Create.of(1L, 2L)).apply(View.asList());
    List<KV<String, Long>> input = new java.util.ArrayList<>();
    for (long i = 0; i < 20_000; i++) {
      input.add(KV.of("k" + (i % 7), 1L));
    }
    p.apply("main", Create.of(input).withCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
        .apply(
            "withSide",
            ParDo.of(
                    new DoFn<KV<String, Long>, KV<String, Long>>() {
                      @ProcessElement
                      public void process(ProcessContext c) {
                        c.output(KV.of(c.element().getKey(), (long) c.sideInput(side).size()));
                      }
                    })
                .withSideInputs(side))
        .apply(
            ParDo.of(
                new DoFn<KV<String, Long>, String>() {
                  @StateId("sum")
                  private final StateSpec<ValueState<Long>> sum =
                      StateSpecs.value(VarLongCoder.of());

                  @ProcessElement
                  public void process(
                      @Element KV<String, Long> e,
                      @StateId("sum") ValueState<Long> sum,
                      OutputReceiver<String> out) {
                    long s = (sum.read() == null ? 0 : sum.read()) + e.getValue();
                    sum.write(s);
                    if (s
                        == 2L
                            * (20_000 / 7
                                + (Integer.parseInt(e.getKey().substring(1)) < 20_000 % 7
                                    ? 1
                                    : 0))) {
                      out.output(e.getKey() + ":" + s);
                    }
                  }
                }))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    assertEquals(7, OUT.size(), OUT.toString());
  }

  @Test
  void mapStateAndWindowExpirationWork() throws Exception {
    OUT.clear();
    Pipeline p = Pipeline.create(options());
    p.apply(
            Create.of(KV.of("a", "x"), KV.of("a", "y"), KV.of("a", "x"), KV.of("b", "z"))
                .withCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of())))
        .apply(
            ParDo.of(
                new DoFn<KV<String, String>, String>() {
                  @StateId("seen")
                  private final StateSpec<org.apache.beam.sdk.state.MapState<String, Long>> seen =
                      StateSpecs.map(StringUtf8Coder.of(), VarLongCoder.of());

                  @ProcessElement
                  public void process(
                      @Element KV<String, String> e,
                      @StateId("seen") org.apache.beam.sdk.state.MapState<String, Long> seen) {
                    Long n = seen.get(e.getValue()).read();
                    seen.put(e.getValue(), n == null ? 1 : n + 1);
                  }

                  @OnWindowExpiration
                  public void expire(
                      @StateId("seen") org.apache.beam.sdk.state.MapState<String, Long> seen,
                      OutputReceiver<String> out) {
                    java.util.TreeMap<String, Long> all = new java.util.TreeMap<>();
                    seen.entries().read().forEach(en -> all.put(en.getKey(), en.getValue()));
                    out.output(all.toString());
                  }
                }))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    assertEquals(List.of("{x=2, y=1}", "{z=1}"), OUT.stream().sorted().toList());
  }

  @Test
  void reshuffleAndMapSideInputEntriesWork() throws Exception {
    OUT.clear();
    Pipeline p = Pipeline.create(options());
    PCollectionView<Map<String, Long>> side =
        p.apply(
                "side",
                Create.of(KV.of("one", 1L), KV.of("two", 2L))
                    .withCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
            .apply(View.asMap());
    p.apply("main", Create.of("q"))
        .apply(org.apache.beam.sdk.transforms.Reshuffle.viaRandomKey())
        .apply(
            ParDo.of(
                    new DoFn<String, String>() {
                      @ProcessElement
                      public void process(ProcessContext c) {
                        c.output(c.element() + new TreeMap<>(c.sideInput(side)).entrySet());
                      }
                    })
                .withSideInputs(side))
        .apply(ParDo.of(new Collect()));
    await(start(p));
    assertEquals(List.of("q[one=1, two=2]"), List.copyOf(OUT));
  }

  @Test
  void aFailingDoFnFailsTheJobWithItsError() throws Exception {
    Pipeline p = Pipeline.create(options());
    p.apply(Create.of("boom"))
        .apply(
            ParDo.of(
                new DoFn<String, String>() {
                  @ProcessElement
                  public void process(@Element String e) {
                    throw new IllegalStateException("user code says " + e);
                  }
                }));
    PortableJob job = start(p);
    assertEquals(PipelineResult.State.FAILED, job.termination().get(120, TimeUnit.SECONDS));
    String message = String.valueOf(job.failure());
    Throwable t = job.failure();
    StringBuilder all = new StringBuilder();
    for (; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    assertTrue(all.toString().contains("user code says boom"), message + "\n" + all);
  }

  /** The harness of a PROCESS environment is another JVM: results come back through a file. */
  static final class AppendToFile extends DoFn<String, Void> {
    private final String file;

    AppendToFile(String file) {
      this.file = file;
    }

    @ProcessElement
    public void process(@Element String e) throws java.io.IOException {
      synchronized (AppendToFile.class) {
        java.nio.file.Files.writeString(
            java.nio.file.Path.of(file),
            e + "\n",
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
      }
    }
  }

  /**
   * The boot command Beam's PROCESS environment starts: a JVM with this test's classpath running
   * the Java SDK harness.
   */
  private static java.nio.file.Path harnessBootScript(java.nio.file.Path dir)
      throws java.io.IOException {
    java.nio.file.Path boot = dir.resolve("boot.sh");
    java.nio.file.Files.writeString(
        boot,
        "#!/bin/sh\nexec '"
            + java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
            + "' -cp '"
            + System.getProperty("java.class.path")
            + "' io.arcon.portability.harness.JavaSdkHarnessBoot \"$@\"\n");
    assertTrue(boot.toFile().setExecutable(true));
    return boot;
  }

  @Test
  void aProcessEnvironmentRunsTheJavaHarnessInAChildProcess(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path boot = harnessBootScript(dir);
    java.nio.file.Path out = dir.resolve("out.txt");
    PortablePipelineOptions options = options();
    options.setDefaultEnvironmentType(Environments.ENVIRONMENT_PROCESS);
    options.setDefaultEnvironmentConfig("{\"command\": \"" + boot + "\"}");
    Pipeline p = Pipeline.create(options);
    p.apply(Create.of("a b", "b"))
        .apply(
            FlatMapElements.into(TypeDescriptors.strings()).via(l -> Arrays.asList(l.split(" "))))
        .apply(Count.perElement())
        .apply(
            MapElements.into(TypeDescriptors.strings())
                .via(kv -> kv.getKey() + "=" + kv.getValue()))
        .apply(ParDo.of(new AppendToFile(out.toString())));
    await(start(p));
    assertEquals(
        List.of("a=1", "b=2"), java.nio.file.Files.readAllLines(out).stream().sorted().toList());
  }

  /** Ends its JVM at once, as a kill -9 of the harness's process would. */
  static final class HaltTheHarness extends DoFn<String, Void> {
    @ProcessElement
    public void process(@Element String e) {
      Runtime.getRuntime().halt(137);
    }
  }

  /**
   * A harness process that dies fails the job with a message that says so: which environment's
   * harness went away, in which stage, and the low-level cause.
   */
  @Test
  void aHarnessThatDiesFailsTheJobSayingSo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path boot = harnessBootScript(dir);
    PortablePipelineOptions options = options();
    options.setDefaultEnvironmentType(Environments.ENVIRONMENT_PROCESS);
    options.setDefaultEnvironmentConfig("{\"command\": \"" + boot + "\"}");
    Pipeline p = Pipeline.create(options);
    p.apply(Create.of("x")).apply("Die", ParDo.of(new HaltTheHarness()));

    PortableJob job = start(p);

    assertEquals(PipelineResult.State.FAILED, job.termination().get(120, TimeUnit.SECONDS));
    StringBuilder chain = new StringBuilder();
    for (Throwable t = job.failure(); t != null; t = t.getCause()) {
      chain.append(t).append('\n');
    }
    String message = chain.toString();
    assertTrue(message.contains("SDK harness"), message);
    assertTrue(message.contains("went away"), message);
    assertTrue(message.contains(boot.toString()), "the environment's command in " + message);
    assertTrue(message.contains("Die"), "the stage's transform in " + message);
  }

  @Test
  void dockerEnvironmentsAreRefused() {
    PortablePipelineOptions options = options();
    options.setDefaultEnvironmentType(Environments.ENVIRONMENT_DOCKER);
    options.setDefaultEnvironmentConfig("apache/beam_java17_sdk:2.73.0");
    Pipeline p = Pipeline.create(options);
    p.apply(Create.of("x")).apply(ParDo.of(new Collect()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> start(p));
    assertTrue(e.getMessage().contains("DOCKER"), e.getMessage());
  }
}
