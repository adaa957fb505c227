/**
 * Restoring a keyed operator instance's state backend from a checkpoint: its own snapshot when
 * nothing changed, otherwise (another parallelism, another engine) the rows of the keys it now
 * owns, picked out of every previous instance's snapshot by key group.
 *
 * <p>{@link io.arcon.runner.state.rescale.KeyedRowLayouts} knows, for every table a keyed operator
 * writes, where a row's encoded key is; {@link io.arcon.runner.state.rescale.KeyGroupRestore}
 * copies the owned rows and merges the few rows that belong to the instance rather than to a key;
 * {@link io.arcon.runner.state.rescale.KeyedBackendRestore} chooses between the two ways and opens
 * the backend; {@link io.arcon.runner.state.rescale.InstanceProgress} keeps the instance's input
 * watermark in its backend so that it travels with the snapshot.
 */
package io.arcon.runner.state.rescale;
