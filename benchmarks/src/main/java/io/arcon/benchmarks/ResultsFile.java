package io.arcon.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a pipeline benchmark writes its report, and the writing of it. */
public final class ResultsFile {
  private ResultsFile() {}

  /**
   * {@code benchmarks/target/<name>} whether the benchmark was started from the repository root or
   * from the benchmarks/ folder (exec:exec starts it in the module).
   */
  public static Path inModuleTarget(String name) {
    Path moduleTarget =
        Files.isDirectory(Path.of("benchmarks"))
            ? Path.of("benchmarks", "target")
            : Path.of("target");
    return moduleTarget.resolve(name);
  }

  /** Writes {@code report} to {@code file}, creating its folder. */
  public static void write(Path file, String report) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    Files.writeString(file, report, StandardCharsets.UTF_8);
  }
}
