/**
 * The app side of TSS: an app implements {@link io.arcon.tss.agent.StateSource} (its state catalog
 * and "the rows of a state at version time T") and runs a {@link io.arcon.tss.agent.TssAgent},
 * which registers with the control plane, reports watermarks, writes assigned versions as Parquet
 * and reports them sealed or failed. Also the conversions shared with the control plane: {@link
 * io.arcon.tss.agent.TypeSpecs} (model types to protobuf), {@link io.arcon.tss.agent.KeyLiterals}
 * (ON KEY), {@link io.arcon.tss.agent.ProtoTime}.
 */
package io.arcon.tss.agent;
