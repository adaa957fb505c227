package io.arcon.runtime.graph;

/** How the instances of two vertices are connected. */
public enum EdgeKind {
  /** Instance i sends to instance i (same parallelism, order preserved). */
  FORWARD,
  /** By key: key hash -> key group -> instance; stable so keyed state can be rescaled. */
  KEYED,
  /** Every sender instance sends every element to every receiver instance (side inputs). */
  BROADCAST,
  /** Round-robin over the receiver instances. */
  REBALANCE
}
