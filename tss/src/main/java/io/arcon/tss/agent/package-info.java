/**
 * The app side of TSS: an app implements {@link io.arcon.tss.agent.StateSource} (its state catalog
 * and "the rows of a state at version time T") and runs a {@link io.arcon.tss.agent.TssAgent},
 * which registers with the control plane, reports watermarks, writes assigned versions as Parquet
 * and reports them sealed or failed. What the agent shares with the control plane lives in neutral
 * packages: {@link io.arcon.tss.model.StateDescriptor} and {@link io.arcon.tss.model.KeyLiterals}
 * (ON KEY) in the model, the protobuf conversions in {@link io.arcon.tss.wire}.
 */
package io.arcon.tss.agent;
