package io.arcon.portability.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/arcon-jobserver} run as a user runs it (over this build, see {@link ScriptLayout}).
 */
class JobServerScriptTest {
  private static final Pattern READY =
      Pattern.compile("Arcon job server listening on 127\\.0\\.0\\.1:(\\d+) .*");

  @TempDir Path temp;

  /**
   * A Java pipeline whose DoFn exists only in a jar runs in the EMBEDDED environment of a server
   * started with {@code --classpath <that jar>}.
   */
  @Test
  void classpathPutsTheUsersClassesOnTheServersClasspath() throws Exception {
    ScriptLayout layout = ScriptLayout.create(temp.resolve("repo"));
    Path jar = DoFnJar.build(temp.resolve("jar"));
    Path out = temp.resolve("out.txt");
    Path stderr = temp.resolve("stderr.txt");
    Process server =
        layout
            .command(
                "arcon-jobserver",
                "--job-port=0",
                "--artifact-port=0",
                "--staging-dir=" + temp.resolve("staging"),
                "--classpath",
                jar.toString())
            .redirectError(stderr.toFile())
            .start();
    try {
      String line =
          new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      Matcher ready = READY.matcher(String.valueOf(line));
      assertTrue(ready.matches(), line + "\nstderr:\n" + Files.readString(stderr));
      Pipeline p =
          Pipeline.create(
              PipelineOptionsFactory.fromArgs(
                      "--runner=ArconPortableRunner", "--jobEndpoint=127.0.0.1:" + ready.group(1))
                  .create());
      p.apply(Create.of("x", "y")).apply(ParDo.of(DoFnJar.appendLine(jar, out)));

      PipelineResult.State state = p.run().waitUntilFinish();

      assertEquals(PipelineResult.State.DONE, state, Files.readString(stderr));
      assertEquals(List.of("x", "y"), DoFnJar.linesOf(out));
    } finally {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  /** A classpath entry that does not exist is refused at once, naming it and where it came from. */
  @Test
  void aMissingClasspathEntryIsRefusedNamingIt() throws Exception {
    ScriptLayout layout = ScriptLayout.create(temp.resolve("repo"));
    Path missing = temp.resolve("no-such.jar");

    ProcessBuilder byOption = layout.command("arcon-jobserver", "--classpath=" + missing);
    ProcessBuilder byEnv = layout.command("arcon-jobserver");
    byEnv.environment().put("ARCON_JOBSERVER_CLASSPATH", missing.toString());

    for (var entry :
        List.of(List.of(byOption, "--classpath"), List.of(byEnv, "ARCON_JOBSERVER_CLASSPATH"))) {
      Process process = ((ProcessBuilder) entry.get(0)).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS));
      assertEquals(2, process.exitValue(), output);
      assertTrue(output.contains(entry.get(1) + ": '" + missing + "' does not exist"), output);
    }
  }

  @Test
  void helpShowsTheScriptsOwnOption() throws Exception {
    ScriptLayout layout = ScriptLayout.create(temp.resolve("repo"));

    Process process = layout.command("arcon-jobserver", "--help").redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("--job-port"), output);
    assertTrue(output.contains("--classpath=JARS"), output);
  }
}
