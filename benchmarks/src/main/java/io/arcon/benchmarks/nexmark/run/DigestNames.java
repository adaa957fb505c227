package io.arcon.benchmarks.nexmark.run;

/** Names of the counters (Beam) and accumulators (Flink) a run's digest is made of. */
final class DigestNames {
  private DigestNames() {}

  static final String NAMESPACE = "nexmark";
  static final String RECORDS = "records";
  static final String LOW = "fingerprintLowSum";
  static final String HIGH = "fingerprintHighSum";
  static final String COUNTED_BIDS = "countedBids";

  static long low(long fingerprint) {
    return fingerprint & 0xFFFF_FFFFL;
  }

  static long high(long fingerprint) {
    return fingerprint >>> 32;
  }
}
