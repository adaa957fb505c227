package io.arcon.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** The runners the example tests run on, and reading back what a pipeline wrote. */
final class Runners {

  /**
   * Runner names, overridable with {@code -Dexamples.runners=DirectRunner} (e.g. to compare with
   * Beam's reference runner alone).
   */
  static Stream<String> names() {
    return Arrays.stream(
            System.getProperty("examples.runners", "ArconRunner,DirectRunner").split(","))
        .map(String::trim)
        .filter(name -> !name.isEmpty());
  }

  /** The TSS home of this test JVM's pipelines, under the module's build directory. */
  private static final Path TSS_HOME =
      Path.of("target", "tss-home-" + ProcessHandle.current().pid());

  private Runners() {}

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Options of {@code type} for {@code runner}, plus the given extra arguments. */
  static <T extends PipelineOptions> T options(Class<T> type, String runner, String... args) {
    List<String> all = new ArrayList<>();
    all.add("--runner=" + runner);
    if (runner.equals("ArconRunner")) {
      // Two instances per chain exercise the keyed shuffle even on a 2-core machine.
      all.add("--parallelism=2");
      // TSS stays on, as for a user, but on a control plane of the test's own: not the one a
      // developer may run at the default endpoint, nor the default home under ~/.arcon.
      all.add("--tssEndpoint=127.0.0.1:" + freePort());
      all.add("--tssHome=" + TSS_HOME.toAbsolutePath());
    }
    all.addAll(Arrays.asList(args));
    return PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).withValidation().as(type);
  }

  /** All lines of all files in {@code dir} whose names start with {@code prefix}. */
  static List<String> readLines(Path dir, String prefix) {
    try (Stream<Path> files = Files.list(dir)) {
      List<String> lines = new ArrayList<>();
      for (Path file :
          files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().toList()) {
        lines.addAll(Files.readAllLines(file));
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
