/**
 * {@link io.arcon.tss.lake.LakeLayout}: where a TSS's files live in the lake, for the agent that
 * writes a version, the control plane that commits it and the CLI that queries it.
 */
package io.arcon.tss.lake;
