package io.arcon.benchmarks.nexmark.run;

import java.util.Locale;

/**
 * The order-independent digest of a run's output: how many records, the sums of the low and high 32
 * bits of their fingerprints (two sums of 32-bit halves cannot overflow a counter, so every
 * runner's metric aggregation adds them exactly), and the bids the records count (Q12).
 */
public record Digest(
    long records, long fingerprintLowSum, long fingerprintHighSum, long countedBids) {

  /** Whether two runs produced the same multiset of records (with overwhelming probability). */
  public boolean sameRecords(Digest other) {
    return records == other.records
        && fingerprintLowSum == other.fingerprintLowSum
        && fingerprintHighSum == other.fingerprintHighSum;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%,d records, fingerprint sums %x/%x, %,d counted bids",
        records,
        fingerprintHighSum,
        fingerprintLowSum,
        countedBids);
  }
}
