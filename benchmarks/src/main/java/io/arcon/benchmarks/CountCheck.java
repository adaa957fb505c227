package io.arcon.benchmarks;

import java.util.Locale;

/**
 * The check every counting benchmark run passes: one result per distinct key, and the counts add up
 * to the elements sent. A benchmark that measured a wrong pipeline must fail, not report a rate.
 */
public final class CountCheck {
  private CountCheck() {}

  /** Fails unless {@code keysSeen == expectedKeys} and {@code counted == elements}. */
  public static void require(
      String label, long keysSeen, long counted, long expectedKeys, long elements) {
    if (keysSeen != expectedKeys || counted != elements) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s produced a wrong result: %d keys whose counts add up to %d, expected %d keys"
                  + " adding up to %d",
              label,
              keysSeen,
              counted,
              expectedKeys,
              elements));
    }
  }
}
