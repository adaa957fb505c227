package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.ConfigurationList;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.SteadyStateOptions;
import io.arcon.benchmarks.SteadyStateRate;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.state.rocksdb.RocksDbOptions;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Per-element keyed state, ArconRunner against native Flink (issue 15, item 1): a stateful DoFn
 * that reads and writes a {@code ValueState} for every element ({@link PerElementStatePipeline})
 * against the same job as a Flink {@code KeyedProcessFunction} ({@link KeyedCountFlinkJob},
 * streaming mode, local MiniCluster), on heap and on RocksDB, for each key count, at the same
 * parallelism.
 *
 * <p>Every run is a JVM of its own ({@link PerElementStateRun}: warm-up, then one measured run), so
 * no configuration inherits another's heap, JIT or threads, and Flink's RocksDB backend can bring
 * its own {@code org.rocksdb} classes (frocksdbjni, copied to {@code target/flink-rocksdb} by the
 * build) in place of our rocksdbjni. Runs go in rounds over all configurations, so a drift of the
 * machine touches all alike. Reports best and mean elements/s and ArconRunner ÷ Flink per backend,
 * for whole runs (start and stop included) and, with {@code --steadyState} (the default), in steady
 * state: each child also runs a quarter of the elements before its measured run (twice; the first
 * of the two, right after the warm-up, still carries the JIT compilers' work and is not measured),
 * and the rate of the elements beyond that short run leaves out what starting and stopping cost
 * ({@link SteadyStateRate}; a Flink MiniCluster's start is about 0.9 s here).
 */
public final class PerElementStateBenchmark {

  private PerElementStateBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} (ArconRunner's) is used by both systems. */
  public interface Options extends ArconPipelineOptions, SteadyStateOptions, ResultsFileOptions {
    @Description("Elements of each measured run")
    @Default.Long(10_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of the warm-up run in each JVM before its measured run (0: none)")
    @Default.Long(2_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Comma-separated key counts; every configuration runs at each")
    @Default.String("10000,1000000")
    String getKeys();

    void setKeys(String value);

    @Description("Measured runs (rounds) per configuration and key count")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description(
        "Comma-separated configurations: arcon-heap, flink-heap, arcon-rocksdb, flink-rocksdb,"
            + " arcon-lmdb")
    @Default.String("arcon-heap,flink-heap,arcon-rocksdb,flink-rocksdb")
    String getConfigurations();

    void setConfigurations(String value);

    // AlwaysPreTouch: on the benchmark VM (a Firecracker guest whose freed memory the host takes
    // back) the first write to each heap page is a fault costing microseconds, 0.7M of them in a
    // 5M-element run. Without it the measured window pays for whatever heap the engine first
    // touches there, which penalizes the engine that allocates more far beyond a long-running job.
    @Description("JVM options of every child JVM")
    @Default.String("-Xms4g -Xmx4g -XX:+AlwaysPreTouch")
    String getChildJvmOptions();

    void setChildJvmOptions(String value);

    @Description(
        "Managed memory of Flink's MiniCluster, which its RocksDB backend uses for its block cache"
            + " and memtables: a size such as 640m, 'default' (Flink's local default, 128 MB) or"
            + " 'matched': what ArconRunner's rocksdb engine may take at the same parallelism,"
            + " a block cache per instance and the row caches' share of the child JVMs' -Xmx")
    @Default.String("matched")
    String getFlinkManagedMemory();

    void setFlinkManagedMemory(String value);
  }

  public static void main(String[] args) throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    String report = run(options);
    ResultsFile.publish(
        report, ResultsFile.chosen(options, "per-element-state.txt"), "per-element-state");
  }

  /** Runs every round and returns the report. */
  static String run(Options options) throws Exception {
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    List<Configuration> configurations = Configuration.parseList(options.getConfigurations());
    List<Long> keyCounts = parseKeys(options.getKeys());
    long shortElements =
        options.getSteadyState() ? SteadyStateRate.shortElements(options.getElements()) : 0;
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, List<Double>> steadyRates = new LinkedHashMap<>();
    for (long keys : keyCounts) {
      for (Configuration c : configurations) {
        rates.put(cell(c, keys), new ArrayList<>());
        steadyRates.put(cell(c, keys), new ArrayList<>());
      }
    }
    for (int round = 1; round <= options.getRuns(); round++) {
      for (long keys : keyCounts) {
        for (Configuration c : configurations) {
          ChildTimes times = runChild(options, c, keys, shortElements);
          double rate = options.getElements() / times.seconds;
          rates.get(cell(c, keys)).add(rate);
          log(
              "round %d: %s, %,d keys: %,d elements in %.2f s = %,.0f el/s",
              round, c.label, keys, options.getElements(), times.seconds, rate);
          if (shortElements > 0) {
            double steady =
                SteadyStateRate.of(
                    shortElements, times.shortSeconds, options.getElements(), times.seconds);
            steadyRates.get(cell(c, keys)).add(steady);
            log(
                "round %d: %s, %,d keys: steady state %,.0f el/s (short run: %,d elements in %.2f"
                    + " s)",
                round, c.label, keys, steady, shortElements, times.shortSeconds);
          }
        }
      }
    }
    return report(
        options,
        configurations,
        keyCounts,
        rates,
        shortElements > 0 ? steadyRates : null,
        shortElements);
  }

  /** A child's measured run and, when one ran, its short run, in seconds. */
  private record ChildTimes(double seconds, double shortSeconds) {}

  private static String report(
      Options options,
      List<Configuration> configurations,
      List<Long> keyCounts,
      Map<String, List<Double>> rates,
      Map<String, List<Double>> steadyRates,
      long shortElements) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "PerElementStateBenchmark: %,d elements per run (after %,d warm-up in the same JVM),"
                + " %d round(s), parallelism %d, Flink managed memory %s, %d available processors,"
                + " Java %s%n",
            options.getElements(),
            options.getWarmupElements(),
            options.getRuns(),
            options.getParallelism(),
            flinkManagedMemory(options),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    if (steadyRates != null) {
      out.append(
          String.format(
              Locale.ROOT,
              "steady state: each child also ran %,d elements before its measured run (after an"
                  + " unmeasured run of as many, which settles the JIT); steady el/s"
                  + " = (%,d - %,d) / (measured s - short s), start and stop costs left out%n",
              shortElements,
              options.getElements(),
              shortElements));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%-40s %10s %14s %14s%s%n",
            "configuration",
            "keys",
            "best el/s",
            "mean el/s",
            steadyRates == null
                ? ""
                : String.format(Locale.ROOT, " %16s %16s", "steady best", "steady mean")));
    for (long keys : keyCounts) {
      for (Configuration c : configurations) {
        List<Double> r = rates.get(cell(c, keys));
        out.append(
            String.format(
                Locale.ROOT,
                "%-40s %,10d %,14.0f %,14.0f%s%n",
                c.label,
                keys,
                SteadyStateRate.best(r),
                SteadyStateRate.mean(r),
                steadyRates == null
                    ? ""
                    : String.format(
                        Locale.ROOT,
                        " %,16.0f %,16.0f",
                        SteadyStateRate.best(steadyRates.get(cell(c, keys))),
                        SteadyStateRate.mean(steadyRates.get(cell(c, keys))))));
      }
    }
    for (long keys : keyCounts) {
      for (Configuration arcon : configurations) {
        Configuration flink = arcon.flinkCounterpart();
        if (flink == null || !configurations.contains(flink)) {
          continue;
        }
        appendRatio(out, "", arcon, flink, keys, rates);
        if (steadyRates != null) {
          appendRatio(out, "steady-state ", arcon, flink, keys, steadyRates);
        }
      }
    }
    return out.toString();
  }

  /** One line of ArconRunner's best and mean rate over Flink's at {@code keys}. */
  private static void appendRatio(
      StringBuilder out,
      String kind,
      Configuration arcon,
      Configuration flink,
      long keys,
      Map<String, List<Double>> rates) {
    List<Double> a = rates.get(cell(arcon, keys));
    List<Double> f = rates.get(cell(flink, keys));
    out.append(
        String.format(
            Locale.ROOT,
            "%sratio %s / %s, %,d keys: %.2fx (best), %.2fx (mean)%n",
            kind,
            arcon.name,
            flink.name,
            keys,
            SteadyStateRate.best(a) / SteadyStateRate.best(f),
            SteadyStateRate.mean(a) / SteadyStateRate.mean(f)));
  }

  /**
   * Starts one child JVM for {@code configuration} and returns its measured run's seconds and, with
   * {@code shortElements} &gt; 0, its short run's.
   */
  private static ChildTimes runChild(
      Options options, Configuration configuration, long keys, long shortElements)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String option : options.getChildJvmOptions().trim().split("\\s+")) {
      if (!option.isEmpty()) {
        command.add(option);
      }
    }
    command.add("-cp");
    command.add(String.join(File.pathSeparator, configuration.classPath()));
    command.add(PerElementStateRun.class.getName());
    command.add(configuration.name);
    command.add(Long.toString(keys));
    command.add(Long.toString(options.getElements()));
    command.add(Long.toString(options.getWarmupElements()));
    command.add(Integer.toString(options.getParallelism()));
    command.add(flinkManagedMemory(options));
    command.add(Long.toString(shortElements));
    Path log = Files.createTempFile("per-element-" + configuration.name, ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(30, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          configuration.label + " did not finish within 30 minutes; its log: " + log);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    double shortSeconds = Double.NaN;
    for (String line : output.split("\n")) {
      if (line.startsWith(PerElementStateRun.SHORT_RESULT + " ")) {
        shortSeconds = secondsOf(line, PerElementStateRun.SHORT_RESULT);
      } else if (line.startsWith(PerElementStateRun.RESULT + " ")
          && (shortElements == 0 || !Double.isNaN(shortSeconds))) {
        Files.deleteIfExists(log);
        return new ChildTimes(secondsOf(line, PerElementStateRun.RESULT), shortSeconds);
      }
    }
    throw new IllegalStateException(
        configuration.label
            + " ended (exit code "
            + process.exitValue()
            + ") without a result; its output ("
            + log
            + "):\n"
            + output);
  }

  private static double secondsOf(String line, String prefix) {
    return Double.parseDouble(line.substring(prefix.length() + 1).trim());
  }

  /**
   * The managed memory the Flink child gets: {@code default}, a size as given, or for {@code
   * matched} the memory ArconRunner's rocksdb engine may use in the same child JVM: a block cache
   * per parallel instance and the row caches' share of the heap, in MiB.
   */
  static String flinkManagedMemory(Options options) {
    String value = options.getFlinkManagedMemory().trim();
    if (!value.equals("matched")) {
      return value;
    }
    long bytes =
        options.getParallelism() * RocksDbOptions.defaults().blockCacheBytes()
            + RocksDbOptions.rowCacheMemoryBytes(childMaxHeapBytes(options.getChildJvmOptions()));
    return (bytes >> 20) + "m";
  }

  /** The last {@code -Xmx} of the child JVM options, else the JVM's default (a quarter of RAM). */
  static long childMaxHeapBytes(String childJvmOptions) {
    long heap = -1;
    for (String option : childJvmOptions.trim().split("\\s+")) {
      if (option.startsWith("-Xmx")) {
        heap = parseJvmSize(option.substring(4), option);
      }
    }
    if (heap > 0) {
      return heap;
    }
    return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize()
        / 4;
  }

  private static long parseJvmSize(String size, String option) {
    if (size.isEmpty()) {
      throw new IllegalArgumentException("--childJvmOptions has " + option + " without a size");
    }
    char unit = Character.toLowerCase(size.charAt(size.length() - 1));
    int shift =
        switch (unit) {
          case 'k' -> 10;
          case 'm' -> 20;
          case 'g' -> 30;
          case 't' -> 40;
          default -> 0;
        };
    String digits = shift == 0 ? size : size.substring(0, size.length() - 1);
    try {
      return Long.parseLong(digits) << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--childJvmOptions has " + option + ", which is not a JVM size (e.g. -Xmx4g)", e);
    }
  }

  private static List<Long> parseKeys(String text) {
    List<Long> keys = new ArrayList<>();
    for (String part : text.split(",")) {
      String trimmed = part.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      long value;
      try {
        value = Long.parseLong(trimmed);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--keys must be comma-separated positive numbers, got '" + trimmed + "'", e);
      }
      if (value <= 0) {
        throw new IllegalArgumentException("--keys must be positive, got " + value);
      }
      keys.add(value);
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("--keys is empty; give key counts, e.g. 10000,1000000");
    }
    return keys;
  }

  private static String cell(Configuration c, long keys) {
    return c.name + "@" + keys;
  }

  private static void log(String format, Object... args) {
    System.err.println("[per-element-state] " + String.format(Locale.ROOT, format, args));
  }

  /** A system and its state backend. */
  enum Configuration {
    ARCON_HEAP("arcon-heap", "ArconRunner, heap", "heap", null),
    FLINK_HEAP("flink-heap", "Flink KeyedProcessFunction, hashmap", null, "hashmap"),
    ARCON_ROCKSDB("arcon-rocksdb", "ArconRunner, rocksdb", "rocksdb", null),
    FLINK_ROCKSDB("flink-rocksdb", "Flink KeyedProcessFunction, rocksdb", null, "rocksdb"),
    ARCON_LMDB("arcon-lmdb", "ArconRunner, lmdb", "lmdb", null);

    final String name;
    final String label;

    /** ArconRunner's {@code --stateBackend}, or null for a Flink configuration. */
    final String arconBackend;

    /** Flink's {@code state.backend.type}, or null for an ArconRunner configuration. */
    final String flinkBackend;

    Configuration(String name, String label, String arconBackend, String flinkBackend) {
      this.name = name;
      this.label = label;
      this.arconBackend = arconBackend;
      this.flinkBackend = flinkBackend;
    }

    /** The Flink configuration an ArconRunner one is compared with, or null. */
    Configuration flinkCounterpart() {
      return switch (this) {
        case ARCON_HEAP -> FLINK_HEAP;
        case ARCON_ROCKSDB -> FLINK_ROCKSDB;
        default -> null;
      };
    }

    /**
     * The child JVM's class path: this JVM's, except that Flink's RocksDB backend gets Flink's
     * RocksDB (frocksdbjni, which also defines {@code org.rocksdb}) instead of ours.
     */
    List<String> classPath() throws IOException {
      List<String> entries = expandedClassPath();
      if (this != FLINK_ROCKSDB) {
        return entries;
      }
      Path flinkRocksDb = flinkRocksDbDirectory();
      List<String> result = new ArrayList<>();
      try (Stream<Path> jars = Files.list(flinkRocksDb)) {
        jars.filter(p -> p.toString().endsWith(".jar"))
            .sorted()
            .forEach(p -> result.add(p.toString()));
      }
      if (result.size() < 2) {
        throw new IllegalStateException(
            "Flink's RocksDB backend is missing from "
                + flinkRocksDb
                + "; build the benchmarks module first (mvn -pl benchmarks -am compile copies it"
                + " there)");
      }
      for (String entry : entries) {
        if (!Path.of(entry).getFileName().toString().startsWith("rocksdbjni-")) {
          result.add(entry);
        }
      }
      return result;
    }

    static List<Configuration> parseList(String names) {
      return ConfigurationList.parseNonEmpty("--configurations", names, values(), c -> c.name, "");
    }
  }

  /** {@code benchmarks/target/flink-rocksdb}, from the repository root or the module. */
  static Path flinkRocksDbDirectory() {
    return ResultsFile.inModuleTarget("flink-rocksdb");
  }

  /**
   * This JVM's class path as a list of entries; a manifest-only jar (Surefire's booter) is replaced
   * by the entries of its {@code Class-Path}, so single entries can be swapped.
   */
  static List<String> expandedClassPath() throws IOException {
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path path = Path.of(entry);
      List<String> fromManifest = List.of();
      if (entry.endsWith(".jar") && Files.isRegularFile(path)) {
        try (JarFile jar = new JarFile(path.toFile())) {
          Manifest manifest = jar.getManifest();
          String classPath =
              manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
          if (classPath != null && jar.stream().noneMatch(e -> e.getName().endsWith(".class"))) {
            fromManifest = new ArrayList<>();
            for (String url : classPath.trim().split("\\s+")) {
              fromManifest.add(Path.of(path.getParent().toUri().resolve(url)).toString());
            }
          }
        }
      }
      if (fromManifest.isEmpty()) {
        entries.add(entry);
      } else {
        entries.addAll(fromManifest);
      }
    }
    return entries;
  }
}
