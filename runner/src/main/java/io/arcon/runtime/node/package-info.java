/**
 * One parallel instance of a vertex (a fused operator chain), after Flink's mailbox model: a plain
 * single-threaded {@link io.arcon.runtime.node.NodeTask} that its host calls once per message, and
 * {@link io.arcon.runtime.node.NodeActor}, the host in a running job, which only turns Pekko
 * messages into those calls. The task is composed of:
 *
 * <ul>
 *   <li>{@code input/} — the {@link io.arcon.runtime.node.input.InputValve}: per-channel and
 *       per-port watermarks and end of stream, the node's input watermark (the minimum over its
 *       channels);
 *   <li>{@code chain/} — the {@link io.arcon.runtime.node.chain.OperatorChain}: the operators, the
 *       in-chain outputs, and each operator's watermark under the holds of the ones feeding it;
 *   <li>{@code output/} — the {@link io.arcon.runtime.node.output.EdgeOutputs}: routing by edge
 *       kind, batches, credit-based flow control, the node's output watermark;
 *   <li>{@code bundle/} — the {@link io.arcon.runtime.node.bundle.BundleController}: bundles end by
 *       size, by age, around watermarks and, for test streams, after every message;
 *   <li>{@code finish/} — the {@link io.arcon.runtime.node.finish.FinishProtocol}: final watermark,
 *       pending work, end of the operators, end of stream, completion;
 *   <li>strategies with no-op defaults: {@code time/} ({@link
 *       io.arcon.runtime.node.time.SynchronizedTime}, Beam's synchronized processing time) and
 *       {@code activity/} ({@link io.arcon.runtime.node.activity.NodeActivity}, the in-flight count
 *       a test stream waits on).
 * </ul>
 */
package io.arcon.runtime.node;
