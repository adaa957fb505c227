package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemporaryStateRootTest {
  @TempDir Path temp;

  private String tmpdirBefore;

  @BeforeEach
  void pointTmpdirHere() {
    tmpdirBefore = System.getProperty("java.io.tmpdir");
  }

  @AfterEach
  void restoreTmpdir() {
    System.setProperty("java.io.tmpdir", tmpdirBefore);
  }

  /**
   * The defect: a JVM killed while its job ran left its rocksdb/lmdb files in the temp directory
   * for good. A root stays while its process lives and is swept once the process is gone.
   */
  @Test
  void aLiveProcesssRootIsKeptAndAKilledOnesIsSwept() throws Exception {
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                TemporaryStateRootChild.class.getName(),
                temp.toString())
            .redirectErrorStream(true)
            .start();
    Path root;
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      root = Path.of(out.readLine());
      assertEquals("READY", out.readLine());
      assertTrue(Files.exists(root.resolve("v1-op0-i0/000001.sst")));

      assertEquals(0, TemporaryStateRoot.sweepAbandoned(temp), "swept a live process's root");
      assertTrue(Files.exists(root.resolve("v1-op0-i0/000001.sst")));
    } finally {
      child.destroyForcibly(); // SIGKILL: the child deletes nothing
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    }
    assertTrue(Files.isDirectory(root), "the killed child's root should still be there");

    assertEquals(1, TemporaryStateRoot.sweepAbandoned(temp));
    assertFalse(Files.exists(root));
  }

  @Test
  void thisJvmsOwnRootAndDirectoriesWithoutALockAreLeftAlone() throws Exception {
    TemporaryStateRoot own = TemporaryStateRoot.createIn(temp);
    Path foreign = Files.createDirectories(temp.resolve(TemporaryStateRoot.PREFIX + "older-run"));
    Files.writeString(foreign.resolve("data"), "x");

    assertEquals(0, TemporaryStateRoot.sweepAbandoned(temp));
    assertTrue(Files.isDirectory(own.path()));
    assertTrue(Files.exists(foreign.resolve("data")));

    own.delete();
    assertFalse(Files.exists(own.path()));
    assertEquals(List.of(foreign), roots());
  }

  /**
   * The defect CI found: the sweep took the lock of a root that was made but not locked yet, so the
   * creating run failed (OverlappingFileLockException, in one JVM) or, from another JVM, the new
   * root was deleted under its run. Roots are locked before a sweep can see them.
   */
  @Test
  void rootsMadeWhileSweepsRunAreNeverTakenForAbandoned() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean creating =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread sweeper =
        new Thread(
            () -> {
              while (creating.get()) {
                TemporaryStateRoot.sweepAbandoned(temp);
              }
            });
    sweeper.start();
    try {
      for (int i = 0; i < 300; i++) {
        TemporaryStateRoot root = TemporaryStateRoot.createIn(temp);
        Path data = Files.writeString(root.path().resolve("data"), "x");
        Thread.onSpinWait();
        assertTrue(Files.exists(data), "a sweep deleted live root " + i);
        root.delete();
      }
    } finally {
      creating.set(false);
      sweeper.join();
    }
    assertEquals(List.of(), roots());
  }

  /** A run deletes its root when it ends, and when it fails to start after creating it. */
  @Test
  void aRunDeletesItsRootWhenItEndsAndWhenItFailsToStart() throws Exception {
    System.setProperty("java.io.tmpdir", temp.toString());

    PipelineResult result = statefulPipeline(options()).run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    assertEquals(List.of(), roots());

    // A checkpoint directory that is a file fails the run after its state root was created.
    Path notADirectory = Files.writeString(temp.resolve("checkpoints-file"), "x");
    ArconPipelineOptions failing = options();
    failing.setCheckpointingInterval(100L);
    failing.setCheckpointDir(notADirectory.toString());
    Pipeline pipeline = statefulPipeline(failing);
    RuntimeException e = assertThrows(RuntimeException.class, pipeline::run);
    assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());
    assertEquals(List.of(), roots());
  }

  private static ArconPipelineOptions options() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    options.setTss("off");
    options.setWebUi("off");
    options.setStateBackend("rocksdb");
    return options;
  }

  private static Pipeline statefulPipeline(ArconPipelineOptions options) {
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply(Create.of(KV.of(1L, 1L), KV.of(2L, 2L), KV.of(1L, 3L)))
        .apply(ParDo.of(new Remember()));
    return pipeline;
  }

  private List<Path> roots() throws Exception {
    try (Stream<Path> files = Files.list(temp)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith(TemporaryStateRoot.PREFIX))
          .toList();
    }
  }

  private static final class Remember extends DoFn<KV<Long, Long>, Void> {
    @StateId("last")
    private final StateSpec<ValueState<Long>> last = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(@Element KV<Long, Long> element, @StateId("last") ValueState<Long> state) {
      state.write(element.getValue());
    }
  }
}
