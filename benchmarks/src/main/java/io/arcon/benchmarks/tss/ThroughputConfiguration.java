package io.arcon.benchmarks.tss;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

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
    StringJoiner names = new StringJoiner(",");
    for (ThroughputConfiguration c : values()) {
      names.add(c.name);
    }
    return names.toString();
  }

  /** Parses {@code --configurations}; an empty list is allowed (extraction only). */
  static List<ThroughputConfiguration> parseList(String names) {
    List<ThroughputConfiguration> result = new ArrayList<>();
    for (String name : names.split(",")) {
      String trimmed = name.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      ThroughputConfiguration found = null;
      for (ThroughputConfiguration c : values()) {
        if (c.name.equals(trimmed)) {
          found = c;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(
            "Unknown configuration '"
                + trimmed
                + "' in --configurations; use a comma-separated subset of "
                + allNames()
                + " (or an empty value to measure extraction only)");
      }
      result.add(found);
    }
    return result;
  }
}
