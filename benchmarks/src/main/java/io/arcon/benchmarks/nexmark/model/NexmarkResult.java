package io.arcon.benchmarks.nexmark.model;

/** An output record of a Nexmark query: what the digest of a run is made of. */
public interface NexmarkResult {

  /** The record's fingerprint, a function of its field values only (see {@link Fingerprint}). */
  long fingerprint();

  /**
   * How many bids the record counts, for outputs that are not comparable record by record (the
   * processing-time windows of Q12) but whose counts must still add up to the bids sent; 0 for
   * every other output.
   */
  default long countedBids() {
    return 0;
  }
}
