package io.arcon.runtime.node.chain;

/**
 * Carries a checked exception of a downstream operator through {@link
 * io.arcon.runtime.operator.Output#emit}, which cannot declare it; {@link #causeOf} unwraps it.
 */
public final class ChainException extends RuntimeException {
  ChainException(Throwable cause) {
    super(cause);
  }

  /** The failure a user should see: the wrapped exception, or {@code t} itself. */
  public static Throwable causeOf(Throwable t) {
    return t instanceof ChainException && t.getCause() != null ? t.getCause() : t;
  }
}
