package io.arcon.benchmarks.epochs;

/**
 * One {@code snapshotAsync} of a filled backend.
 *
 * @param syncSeconds from the call until it returned: what an epoch stops the node for
 * @param totalSeconds from the call until its future completed: the snapshot is on disk
 * @param bytesOnDisk sizes of the snapshot directory's files (rocksdb's are hard links to the live
 *     SST files: no extra disk until compaction replaces them)
 * @param files files in the snapshot directory
 */
record SnapshotMeasurement(
    int run, double syncSeconds, double totalSeconds, long bytesOnDisk, long files) {}
