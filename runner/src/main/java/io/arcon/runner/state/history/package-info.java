/**
 * Version chains of exported Beam states, so that TSS reads a state as it was at a version time T:
 * the state after exactly the writes whose chain stamp is &lt; T (the event time for exact states,
 * the input watermark for watermark-cut ones).
 *
 * <ul>
 *   <li>{@link io.arcon.runner.state.history.ChainLayout}: the history's binary layout (a base per
 *       row, runs of entries since) and what an entry means; {@link
 *       io.arcon.runner.state.history.ChainRun} one run, {@link
 *       io.arcon.runner.state.history.ChainRuns} an instance's runs.
 *   <li>{@link io.arcon.runner.state.history.ChainRecorder} (one per exported state id, grouped in
 *       {@link io.arcon.runner.state.history.ChainRecorders}): records each write of a cell next to
 *       the write itself, into the instance's {@link
 *       io.arcon.runner.state.history.ChainWriteBuffer}, which writes them out as runs before
 *       anything reads the history (a version, a prune, a snapshot); {@code
 *       BackendStateInternals#enableHistory} installs them.
 *   <li>{@link io.arcon.runner.state.history.StateHistory}: reads the cells of a state at T in
 *       resumable chunks (bases and runs merged by row, {@link
 *       io.arcon.runner.state.history.RowMerge}), decoded to Beam-level values, and prunes the
 *       chains below a horizon ({@link io.arcon.runner.state.history.ChainPruner}: runs folded into
 *       bases); {@link io.arcon.runner.state.history.CellAssembler} rebuilds one cell.
 *   <li>{@link io.arcon.runner.state.history.ExportedState}: the kind and coders of an exported
 *       StateSpec.
 * </ul>
 *
 * <p>The history lives in the operator's own state backend (heap, rocksdb or lmdb), so it is in
 * every snapshot and restored with the state it describes.
 */
package io.arcon.runner.state.history;
