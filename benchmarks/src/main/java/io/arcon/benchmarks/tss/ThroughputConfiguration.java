package io.arcon.benchmarks.tss;

import io.arcon.benchmarks.ConfigurationList;
import java.util.List;

/**
 * A TSS setting of the throughput measurement: how the same pipeline runs with TSS off, on (its
 * state listed as a watermark cut; no TSS reads it, so no history is kept), on while a TSS reads
 * the state (its writes kept as watermark-cut chains), or exported exactly ({@code --tssExport}:
 * input sorted by event time, every write kept in a per-key version chain); on heap, and the
 * baseline and the exact export on rocksdb and lmdb.
 */
public enum ThroughputConfiguration {
  OFF("off", "heap", "(a) --tss=off, heap", "off", false, false),
  ON("on", "heap", "(b) --tss=on, no TSS reads it, heap", "on", false, false),
  ON_READ(
      "on-read",
      "heap",
      "(b') --tss=on, read by a TSS (watermark-cut chains), heap",
      "on",
      false,
      true),
  EXPORT("export", "heap", "(c) --tss=on --tssExport (exact), heap", "on", true, false),
  OFF_ROCKSDB("off-rocksdb", "rocksdb", "(a) --tss=off, rocksdb", "off", false, false),
  EXPORT_ROCKSDB(
      "export-rocksdb", "rocksdb", "(c) --tss=on --tssExport (exact), rocksdb", "on", true, false),
  OFF_LMDB("off-lmdb", "lmdb", "(a) --tss=off, lmdb", "off", false, false),
  EXPORT_LMDB("export-lmdb", "lmdb", "(c) --tss=on --tssExport (exact), lmdb", "on", true, false);

  final String name;
  final String backend;
  final String label;
  final String tss;
  final boolean export;

  /** Whether a TSS reads the state while the pipeline runs (see {@code TssExportBenchmark}). */
  final boolean readByTss;

  ThroughputConfiguration(
      String name, String backend, String label, String tss, boolean export, boolean readByTss) {
    this.name = name;
    this.backend = backend;
    this.label = label;
    this.tss = tss;
    this.export = export;
    this.readByTss = readByTss;
  }

  /** The configuration without TSS on the same backend: the baseline of a ratio. */
  ThroughputConfiguration baseline() {
    return switch (backend) {
      case "heap" -> OFF;
      case "rocksdb" -> OFF_ROCKSDB;
      case "lmdb" -> OFF_LMDB;
      default -> throw new IllegalStateException("no baseline for backend " + backend);
    };
  }

  static String allNames() {
    return ConfigurationList.names(values(), c -> c.name);
  }

  /** Parses {@code --configurations}; an empty list is allowed (extraction only). */
  static List<ThroughputConfiguration> parseList(String names) {
    return ConfigurationList.parse(
        names, values(), c -> c.name, " (or an empty value to measure extraction only)");
  }
}
