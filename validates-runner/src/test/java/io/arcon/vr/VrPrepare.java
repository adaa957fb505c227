package io.arcon.vr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Runs before Surefire: scans the Beam test jars, checks that every line of exclusions.txt still
 * names a real ValidatesRunner test, and writes the list of classes Surefire must load ({@code
 * vr-includes.txt}) plus a human-readable catalog ({@code vr-catalog.tsv}).
 */
public final class VrPrepare {

  /** File names in the output directory, shared with {@link VrSummary} and the listener. */
  static final String INCLUDES_FILE = "vr-includes.txt";

  static final String CATALOG_FILE = "vr-catalog.tsv";

  private VrPrepare() {}

  public static void main(String[] args) throws IOException {
    CommandLine cli = new CommandLine("VrPrepare", args);
    List<Path> jars = cli.paths("jars");
    ExclusionList exclusions = ExclusionList.read(cli.path("exclusions"));
    Path outDir = cli.path("outDir");
    Files.createDirectories(outDir);
    // Results of an earlier run (a hang marker, reports of classes not run now) would be
    // summarized as this run's.
    Files.deleteIfExists(outDir.resolve(ProgressListener.IN_PROGRESS_FILE));
    deleteOldReports(cli.path("reports"));
    deleteStallDumps(outDir.resolve(ProgressListener.STALLS_DIR));

    VrCatalog.Scan scan = VrCatalog.scan(jars, Thread.currentThread().getContextClassLoader());
    List<VrTest> tests = scan.tests();
    if (tests.isEmpty()) {
      throw new IllegalStateException(
          "No ValidatesRunner tests found in " + jars + "; are these Beam's tests jars?");
    }

    Map<ExclusionList.Entry, Integer> uses = new LinkedHashMap<>();
    exclusions.entries().forEach(e -> uses.put(e, 0));
    TreeSet<String> includedClasses = new TreeSet<>();
    List<String> catalogLines = new ArrayList<>();
    catalogLines.add("class\tmethod\texclusion\tcategories");
    int excluded = 0;
    for (VrTest test : tests) {
      Optional<ExclusionList.Entry> exclusion =
          exclusions.match(test.className(), test.methodName(), test.categories());
      exclusion.ifPresent(e -> uses.merge(e, 1, Integer::sum));
      if (exclusion.isPresent()) {
        excluded++;
      } else {
        includedClasses.add(test.className());
      }
      catalogLines.add(
          test.className()
              + "\t"
              + test.methodName()
              + "\t"
              + exclusion.map(e -> e.location() + " " + e.reason()).orElse("")
              + "\t"
              + String.join(",", test.categories()));
    }

    List<String> unused = new ArrayList<>();
    uses.forEach(
        (entry, count) -> {
          if (count == 0) {
            unused.add(entry.location() + ": '" + entry.target() + "'");
          }
        });
    if (!unused.isEmpty()) {
      throw new IllegalStateException(
          "These exclusions match no ValidatesRunner test in the scanned jars; fix the name"
              + " (TestClass#method, TestClass or a category) or delete the line:\n  "
              + String.join("\n  ", unused));
    }

    List<String> includes = new ArrayList<>();
    for (String className : includedClasses) {
      includes.add(className.replace('.', '/') + ".class");
    }
    Files.write(outDir.resolve(INCLUDES_FILE), includes, StandardCharsets.UTF_8);
    Files.write(outDir.resolve(CATALOG_FILE), catalogLines, StandardCharsets.UTF_8);

    System.out.printf(
        "[vr] %d ValidatesRunner test methods in %d classes of %d jars; %d excluded by %d"
            + " exclusions; running %d classes%n",
        tests.size(),
        tests.stream().map(VrTest::className).distinct().count(),
        jars.size(),
        excluded,
        exclusions.entries().size(),
        includedClasses.size());
    // The jars also carry repackaged libraries with optional dependencies; only a test class
    // that cannot be loaded might hide ValidatesRunner tests.
    List<String> unloadableTests =
        scan.unloadableClasses().stream().filter(name -> name.contains("Test")).toList();
    if (!unloadableTests.isEmpty()) {
      System.out.printf(
          "[vr] WARNING: %d test classes in the jars could not be loaded and were not inspected:"
              + "%n  %s%n",
          unloadableTests.size(), String.join("\n  ", unloadableTests));
    }
  }

  private static void deleteOldReports(Path reportsDir) throws IOException {
    if (!Files.isDirectory(reportsDir)) {
      return;
    }
    try (DirectoryStream<Path> reports = Files.newDirectoryStream(reportsDir, "TEST-*.xml")) {
      for (Path report : reports) {
        Files.delete(report);
      }
    }
  }

  private static void deleteStallDumps(Path stallsDir) throws IOException {
    if (!Files.isDirectory(stallsDir)) {
      return;
    }
    try (DirectoryStream<Path> dumps = Files.newDirectoryStream(stallsDir, "*.txt")) {
      for (Path dump : dumps) {
        Files.delete(dump);
      }
    }
  }
}
