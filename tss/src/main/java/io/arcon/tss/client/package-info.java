/**
 * {@link io.arcon.tss.client.TssClient}: the gRPC client of the control plane used by the {@code
 * tss} CLI.
 */
package io.arcon.tss.client;
