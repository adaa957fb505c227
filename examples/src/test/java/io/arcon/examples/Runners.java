package io.arcon.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
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

  private Runners() {}

  /** Options of {@code type} for {@code runner}, plus the given extra arguments. */
  static <T extends PipelineOptions> T options(Class<T> type, String runner, String... args) {
    List<String> all = new ArrayList<>();
    all.add("--runner=" + runner);
    if (runner.equals("ArconRunner")) {
      // Two instances per chain exercise the keyed shuffle even on a 2-core machine.
      all.add("--parallelism=2");
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
