package io.arcon.tss.write;

/**
 * A Parquet part file a writer put in place.
 *
 * @param path the final path (as a Hadoop path string, with scheme)
 * @param rowCount the number of rows in it
 */
public record PartFile(String path, long rowCount) {}
