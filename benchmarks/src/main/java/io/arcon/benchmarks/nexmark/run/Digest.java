package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.util.Locale;

/**
 * The order-independent digest of a run's output: how many records, the sums of the low and high 32
 * bits of their fingerprints (two sums of 32-bit halves cannot overflow a counter, so every
 * runner's metric aggregation adds them exactly), and the bids the records count (Q12).
 */
public record Digest(
    long records, long fingerprintLowSum, long fingerprintHighSum, long countedBids) {

  /** The digest a run producing exactly {@code records} has. */
  public static Digest of(Iterable<? extends NexmarkResult> records) {
    long count = 0;
    long low = 0;
    long high = 0;
    long bids = 0;
    for (NexmarkResult r : records) {
      long fingerprint = r.fingerprint();
      count++;
      low += DigestNames.low(fingerprint);
      high += DigestNames.high(fingerprint);
      bids += r.countedBids();
    }
    return new Digest(count, low, high, bids);
  }

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
