package io.arcon.runtime.epoch;

/** What the {@link EpochCoordinator} tells node instances (not channel messages). */
public final class EpochMessages {
  private EpochMessages() {}

  /** To a node without inputs (a source): cut epoch {@code epoch} now. */
  public record Trigger(long epoch) {}

  /** To every node: epoch {@code epoch} is durable; finalize what waited for it. */
  public record Completed(long epoch) {}
}
