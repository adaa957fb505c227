package io.arcon.runner.faults;

import io.arcon.runtime.epoch.EpochFaultInjector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Stops nodes mid-epoch: arms a random (hook, vertex, epoch) and throws when the first instance of
 * that vertex reaches that hook in that epoch or a later one, then arms the next, until its budget
 * is spent. The vertex is drawn from those seen so far; a target whose vertex stopped taking part
 * (it finished) is re-drawn after a few epochs.
 */
final class RandomEpochFaults implements EpochFaultInjector {
  enum Hook {
    BEFORE_SNAPSHOT,
    BEFORE_ACKNOWLEDGE
  }

  /** What a fault throws. */
  static final class InjectedEpochFault extends Exception {
    InjectedEpochFault(String message) {
      super(message);
    }
  }

  /** A fault that was thrown. */
  record Fault(Hook hook, String vertex, int instance, long epoch) {}

  private record Target(Hook hook, String vertex, long epoch) {}

  /** Epochs past its target epoch after which a target that never fired is re-drawn. */
  private static final int RETARGET_AFTER_EPOCHS = 6;

  private final Random random;
  private int budget;
  private final List<String> vertices = new ArrayList<>();
  private final List<Fault> thrown = new ArrayList<>();
  private long highestEpoch;
  private Target target;

  RandomEpochFaults(long seed, int budget) {
    this.random = new Random(seed);
    this.budget = budget;
  }

  @Override
  public void beforeSnapshot(String vertexName, int instance, long epoch) throws Exception {
    maybeFail(Hook.BEFORE_SNAPSHOT, vertexName, instance, epoch);
  }

  @Override
  public void beforeAcknowledge(String vertexName, int instance, long epoch) throws Exception {
    maybeFail(Hook.BEFORE_ACKNOWLEDGE, vertexName, instance, epoch);
  }

  /** The faults thrown so far. */
  synchronized List<Fault> thrown() {
    return List.copyOf(thrown);
  }

  private synchronized void maybeFail(Hook hook, String vertex, int instance, long epoch)
      throws InjectedEpochFault {
    if (!vertices.contains(vertex)) {
      vertices.add(vertex);
    }
    highestEpoch = Math.max(highestEpoch, epoch);
    if (budget == 0) {
      return;
    }
    if (target == null || epoch > target.epoch() + RETARGET_AFTER_EPOCHS) {
      arm();
    }
    if (hook == target.hook() && vertex.equals(target.vertex()) && epoch >= target.epoch()) {
      budget--;
      target = null;
      thrown.add(new Fault(hook, vertex, instance, epoch));
      throw new InjectedEpochFault(
          "Injected fault " + hook + " of epoch " + epoch + " in " + vertex + " #" + instance);
    }
  }

  private void arm() {
    Hook[] hooks = Hook.values();
    target =
        new Target(
            hooks[random.nextInt(hooks.length)],
            vertices.get(random.nextInt(vertices.size())),
            highestEpoch + 1 + random.nextInt(3));
  }
}
