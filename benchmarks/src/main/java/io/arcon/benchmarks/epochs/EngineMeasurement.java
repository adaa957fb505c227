package io.arcon.benchmarks.epochs;

import java.util.List;

/**
 * Everything the snapshot benchmark measured on one engine.
 *
 * @param fillSeconds putting every row through the {@code StateTable} API
 * @param approximateBytes the backend's own estimate of its size once filled
 * @param snapshots the snapshots, in order
 * @param restoreSeconds each restore of the last snapshot into a fresh backend
 * @param verifySeconds scanning and checking every restored row after the last restore
 */
record EngineMeasurement(
    String engine,
    double fillSeconds,
    long approximateBytes,
    List<SnapshotMeasurement> snapshots,
    List<Double> restoreSeconds,
    double verifySeconds) {}
