package io.arcon.benchmarks.tss;

import io.arcon.benchmarks.ConfigurationList;
import java.util.List;

/**
 * A TSS setting of the throughput measurement: how the same pipeline runs with TSS off, on (its
 * state listed and kept as watermark-cut chains), or exported exactly ({@code --tssExport}: input
 * sorted by event time in the backend, every write kept in a per-key version chain).
 */
public enum ThroughputConfiguration {
  OFF("off", "heap", "(a) --tss=off, heap", "off", false),
  ON("on", "heap", "(b) --tss=on (watermark-cut chains), heap", "on", false),
  EXPORT("export", "heap", "(c) --tss=on --tssExport (exact), heap", "on", true),
  OFF_ROCKSDB("off-rocksdb", "rocksdb", "(a) --tss=off, rocksdb", "off", false),
  EXPORT_ROCKSDB(
      "export-rocksdb", "rocksdb", "(c) --tss=on --tssExport (exact), rocksdb", "on", true);

  final String name;
  final String backend;
  final String label;
  final String tss;
  final boolean export;

  ThroughputConfiguration(String name, String backend, String label, String tss, boolean export) {
    this.name = name;
    this.backend = backend;
    this.label = label;
    this.tss = tss;
    this.export = export;
  }

  /** The configuration without TSS on the same backend: the baseline of a ratio. */
  ThroughputConfiguration baseline() {
    return backend.equals("heap") ? OFF : OFF_ROCKSDB;
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
