package io.arcon.portability.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.portability.jobservice.ArconJobServer;
import io.arcon.portability.jobservice.JobServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/arcon-java-harness} as the boot command of a PROCESS environment. */
class JavaHarnessScriptTest {

  @TempDir Path temp;

  /**
   * A pipeline whose DoFn exists only in a jar given with {@code --filesToStage} runs in a PROCESS
   * harness started by the script: the harness fetches the staged jar (neither the harness's nor
   * the job server's classpath has the class), and deletes what it fetched when it exits.
   */
  @Test
  void theHarnessFetchesTheStagedJarsOntoItsClasspath() throws Exception {
    ScriptLayout layout = ScriptLayout.create(temp.resolve("repo"));
    Path jar = DoFnJar.build(temp.resolve("jar"));
    Path out = temp.resolve("out.txt");
    Path tmp = Files.createDirectories(temp.resolve("tmp"));
    String config =
        "{\"command\": \""
            + layout.script("arcon-java-harness")
            + "\", \"env\": {\"TMPDIR\": \""
            + tmp
            + "\", \"JAVA\": \""
            + Path.of(System.getProperty("java.home"), "bin", "java")
            + "\"}}";
    try (ArconJobServer server =
        ArconJobServer.start(JobServerConfig.ephemeral().withStagingDir(temp.resolve("staging")))) {
      Pipeline p =
          Pipeline.create(
              PipelineOptionsFactory.fromArgs(
                      "--runner=ArconPortableRunner",
                      "--jobEndpoint=" + server.jobEndpoint(),
                      "--defaultEnvironmentType=PROCESS",
                      "--defaultEnvironmentConfig=" + config,
                      "--filesToStage=" + jar)
                  .create());
      p.apply(Create.of("x", "y")).apply(ParDo.of(DoFnJar.appendLine(jar, out)));

      PipelineResult.State state = p.run().waitUntilFinish();

      assertEquals(PipelineResult.State.DONE, state);
      assertEquals(List.of("x", "y"), DoFnJar.linesOf(out));
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!fetched(tmp).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertEquals(List.of(), fetched(tmp), "fetched artifacts left behind");
  }

  private static List<Path> fetched(Path tmp) throws Exception {
    try (Stream<Path> files = Files.list(tmp)) {
      return files.toList();
    }
  }
}
