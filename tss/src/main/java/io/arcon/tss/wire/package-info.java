/**
 * Conversions between the model and its protobuf mirror ({@code tss.proto}), shared by the agent,
 * the control plane and the client: {@link io.arcon.tss.wire.ProtoTime} (times), {@link
 * io.arcon.tss.wire.TypeSpecs} (field types), {@link io.arcon.tss.wire.StateInfos} (an app's state
 * catalog) and {@link io.arcon.tss.wire.StatementResults} (what a statement returned).
 */
package io.arcon.tss.wire;
