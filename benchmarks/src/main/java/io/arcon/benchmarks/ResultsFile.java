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

  /**
   * A benchmark's last step: prints {@code report}, writes it to {@code file} and says where on
   * stderr, tagged as the benchmark's other log lines ({@code [tag] ...}).
   */
  public static void publish(String report, Path file, String tag) throws IOException {
    System.out.print(report);
    write(file, report);
    System.err.println("[" + tag + "] results written to " + file.toAbsolutePath());
  }

  /** The file {@code --resultsFile} names, or {@code benchmarks/target/<defaultName>}. */
  public static Path chosen(ResultsFileOptions options, String defaultName) {
    String file = options.getResultsFile();
    return file == null || file.isEmpty() ? inModuleTarget(defaultName) : Path.of(file);
  }
}
