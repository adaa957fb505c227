package io.arcon.runtime.epoch;

/**
 * Fault injection for the epoch protocol's tests: called by every node at the two points where a
 * crash is hardest to survive. A hook that throws stops the node there (it fails like a crashing
 * node: the job attempt fails and restarts from its newest complete epoch). Null in production.
 */
public interface EpochFaultInjector {
  /** Before the node snapshots {@code epoch}: markers of some inputs are in, nothing is written. */
  void beforeSnapshot(String vertexName, int instance, long epoch) throws Exception;

  /** After the node's snapshot and marker went out, before it acknowledged {@code epoch}. */
  void beforeAcknowledge(String vertexName, int instance, long epoch) throws Exception;
}
