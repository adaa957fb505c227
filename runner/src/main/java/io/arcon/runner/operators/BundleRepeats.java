package io.arcon.runner.operators;

/**
 * Decides, bundle by bundle, whether work that pays only when a bundle's elements come back to a
 * key (or a cell) they already touched in the bundle is worth doing for the next bundle: it is
 * while at least {@value #MIN_PERCENT}% of a bundle's elements were such repeats; while it is not,
 * one bundle in {@value #PROBE_EVERY} does it anyway, to measure again. Bundles of fewer than
 * {@value #MIN_SAMPLE} elements do not change the decision. Not thread-safe.
 *
 * <p>Used where holding a bundle's work per key saves decoding, merging and encoding for hot keys
 * (Nexmark's hot auctions and bidders) but costs a lookup, and the CPU caches' warmth, for keys
 * seen once (sessions of 10k keys at a thousand elements per bundle).
 */
final class BundleRepeats {
  /** Below this share of repeats among a bundle's elements, the next bundles do not hold. */
  static final int MIN_PERCENT = 25;

  /** While not holding, every this many bundles one holds, to measure again. */
  static final int PROBE_EVERY = 8;

  /** A bundle with fewer elements than this does not change the decision. */
  static final int MIN_SAMPLE = 64;

  private boolean on = true;
  private int bundlesOff;
  private int elements;
  private int repeats;

  /** Whether the current bundle holds its work per key. */
  boolean isOn() {
    return on;
  }

  /** Counts {@code elements} seen in the bundle, {@code repeats} of them of a key seen before. */
  void count(int elements, int repeats) {
    this.elements += elements;
    this.repeats += repeats;
  }

  /** Decides from the bundle that ends whether the next one holds. */
  void endBundle() {
    if (elements < MIN_SAMPLE) {
      return;
    }
    if (on) {
      on = repeats * 100L >= (long) elements * MIN_PERCENT;
      bundlesOff = 0;
    } else if (++bundlesOff >= PROBE_EVERY) {
      on = true;
    }
    elements = 0;
    repeats = 0;
  }
}
