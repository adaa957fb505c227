package io.arcon.runtime.node;

import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.graph.KeyedElement;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobMonitor;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.job.StartGate;
import io.arcon.runtime.job.SynchronizedTimeTracker;
import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;

/**
 * One parallel instance of a {@link Vertex}: drives its fused operator chain single-threaded,
 * tracks the input watermark over all input channels, fires timers, closes bundles by size or time,
 * and sends its output in batches under credit-based flow control.
 */
public final class NodeActor extends AbstractActor {

  /**
   * Wiring handed to a node at creation: actor refs of every downstream instance, the job's start
   * gate, and its synchronized-time tracker (null when the job does not track it).
   */
  public record Wiring(
      Map<Integer, ActorRef[]> instancesByVertexId,
      StartGate startGate,
      SynchronizedTimeTracker syncTime) {}

  private final Vertex vertex;
  private final int instance;
  private final RuntimeConfig config;
  private final JobMonitor monitor;
  private final Wiring wiring;

  private Operator[] ops;
  private SourceOperator source;

  /** For each operator, the indexes of in-chain operators feeding it. */
  private int[][] upstreamOps;

  private long[] opOutputWatermark;

  /** The last watermark each operator was advanced to; operators only ever see increases. */
  private long[] opInputWatermark;

  private Output[] opOutputs;

  // input side
  private int[] channelTargetOp;
  private int[] channelTargetPort;
  private long[] channelWatermark;
  private boolean[] channelEnded;
  private int openChannels;

  /** Distinct (operator, port) pairs fed by channels, and each channel's index among them. */
  private int[] portOp;

  private int[] portNumber;
  private int[] channelPort;
  private long[] portWatermark;
  private long inputWatermark = Long.MIN_VALUE;

  /** Inputs that arrived while output was blocked, with their senders (credits go back there). */
  private record PendingInput(RuntimeMessage message, ActorRef sender) {}

  private final ArrayDeque<PendingInput> pendingInputs = new ArrayDeque<>();

  // output side
  private OutputChannel[][] outChannelsByEdge; // [edge id][receiver instance]
  private final List<OutputChannel> allOutChannels = new ArrayList<>();
  private int[] rebalanceCursor;
  private long outputWatermark = Long.MIN_VALUE;

  // bundles and time
  private boolean bundleOpen;
  private long bundleElements;
  private long bundleStartedAt;
  private long scheduledTickAt = Long.MAX_VALUE;

  // synchronized processing time (only when wiring.syncTime() is set)
  private SynchronizedTimeTracker syncTime;

  /** Stamps of batches handled in the open bundle: released once the bundle's output is sent. */
  private long[] bundleSyncHolds = new long[8];

  private int bundleSyncHoldCount;

  /** Stamps of watermarks handled in this message: released once their consequences are sent. */
  private long[] watermarkSyncHolds = new long[8];

  private int watermarkSyncHoldCount;

  /** The synchronized time operators last saw; it never goes back. */
  private long lastSynchronizedTime = Long.MIN_VALUE;

  private boolean inputsEnded;
  private boolean finishing;
  private boolean stopped;

  /** The message that tells a node every node of the job is set up: it may start its work. */
  public static Object startMessage() {
    return NodeMessages.START;
  }

  /** The message that tells a node the job's manual clock moved. */
  public static Object clockAdvancedMessage() {
    return NodeMessages.CLOCK_ADVANCED;
  }

  public static Props props(
      Vertex vertex, int instance, RuntimeConfig config, JobMonitor monitor, Wiring wiring) {
    return Props.create(
        NodeActor.class, () -> new NodeActor(vertex, instance, config, monitor, wiring));
  }

  private NodeActor(
      Vertex vertex, int instance, RuntimeConfig config, JobMonitor monitor, Wiring wiring) {
    this.vertex = vertex;
    this.instance = instance;
    this.config = config;
    this.monitor = monitor;
    this.wiring = wiring;
  }

  @Override
  public void preStart() {
    try {
      setUp();
    } catch (Throwable t) {
      fail(t);
    }
  }

  private void setUp() throws Exception {
    syncTime = wiring.syncTime();
    List<OperatorNode> nodes = vertex.operators();
    int n = nodes.size();
    ops = new Operator[n];
    opOutputWatermark = new long[n];
    Arrays.fill(opOutputWatermark, Long.MIN_VALUE);
    opInputWatermark = new long[n];
    Arrays.fill(opInputWatermark, Long.MIN_VALUE);
    opOutputs = new Output[n];
    List<List<Integer>> ups = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ups.add(new ArrayList<>());
    }
    for (OperatorNode node : nodes) {
      for (int o = 0; o < node.outputCount(); o++) {
        for (OperatorNode.ChainTarget t : node.chainTargets(o)) {
          if (!ups.get(t.operatorIndex()).contains(node.index())) {
            ups.get(t.operatorIndex()).add(node.index());
          }
        }
      }
    }
    upstreamOps = new int[n][];
    for (int i = 0; i < n; i++) {
      upstreamOps[i] = ups.get(i).stream().mapToInt(Integer::intValue).toArray();
    }

    // Input channels.
    int channels = ChannelLayout.channelCount(vertex);
    channelTargetOp = new int[channels];
    channelTargetPort = new int[channels];
    channelWatermark = new long[channels];
    channelEnded = new boolean[channels];
    Arrays.fill(channelWatermark, Long.MIN_VALUE);
    for (Edge e : vertex.inputs()) {
      for (int s = 0; s < e.source().parallelism(); s++) {
        if (e.connects(s, instance)) {
          int ch = ChannelLayout.channelIndex(e, s);
          channelTargetOp[ch] = e.targetOperator();
          channelTargetPort[ch] = e.targetPort();
        }
      }
    }
    openChannels = channels;
    List<Long> ports = new ArrayList<>();
    channelPort = new int[channels];
    for (int ch = 0; ch < channels; ch++) {
      long key = ((long) channelTargetOp[ch] << 32) | channelTargetPort[ch];
      int idx = ports.indexOf(key);
      if (idx < 0) {
        idx = ports.size();
        ports.add(key);
      }
      channelPort[ch] = idx;
    }
    portOp = new int[ports.size()];
    portNumber = new int[ports.size()];
    portWatermark = new long[ports.size()];
    Arrays.fill(portWatermark, Long.MIN_VALUE);
    for (int i = 0; i < ports.size(); i++) {
      portOp[i] = (int) (ports.get(i) >>> 32);
      portNumber[i] = (int) (long) ports.get(i);
    }

    // Output channels.
    int maxEdgeId = -1;
    for (Edge e : vertex.outputs()) {
      maxEdgeId = Math.max(maxEdgeId, e.id());
    }
    outChannelsByEdge = new OutputChannel[maxEdgeId + 1][];
    rebalanceCursor = new int[maxEdgeId + 1];
    for (Edge e : vertex.outputs()) {
      ActorRef[] receivers = wiring.instancesByVertexId().get(e.target().id());
      OutputChannel[] chans = new OutputChannel[receivers.length];
      for (int r = 0; r < receivers.length; r++) {
        if (e.connects(instance, r)) {
          chans[r] =
              new OutputChannel(
                  receivers[r],
                  getSelf(),
                  ChannelLayout.channelIndex(e, instance),
                  config.batchSize(),
                  config.creditsPerChannel(),
                  config.activity(),
                  syncTime,
                  vertex.id(),
                  e.target().id());
          allOutChannels.add(chans[r]);
        }
      }
      outChannelsByEdge[e.id()] = chans;
      rebalanceCursor[e.id()] = instance % receivers.length;
    }

    for (int i = 0; i < n; i++) {
      ops[i] = nodes.get(i).create();
      opOutputs[i] = outputFor(nodes.get(i));
    }
    for (int i = 0; i < n; i++) {
      ops[i].open(new Context(i));
    }
    if (n > 0 && ops[0] instanceof SourceOperator s) {
      source = s;
    }
    wiring.startGate().ready(getSelf());
  }

  /**
   * Every node of the job is set up. Work starts only now, so no node finishes (and tears its DoFns
   * down) while another still runs its setup: user code sees all setups before any teardown.
   */
  private void onStart() {
    if (stopped) {
      return;
    }
    try {
      if (source != null) {
        getSelf().tell(NodeMessages.POLL, ActorRef.noSender());
      } else if (channelTargetOp.length == 0) {
        // A chain with neither inputs nor a source (e.g. Flatten of nothing) is immediately done.
        startFinishing();
      }
    } catch (Throwable t) {
      fail(t);
    }
  }

  private Output outputFor(OperatorNode node) {
    int outputs = node.outputCount();
    int[][] chainOps = new int[outputs][];
    int[][] chainPorts = new int[outputs][];
    Edge[][] edges = new Edge[outputs][];
    for (int o = 0; o < outputs; o++) {
      List<OperatorNode.ChainTarget> targets = node.chainTargets(o);
      chainOps[o] = targets.stream().mapToInt(OperatorNode.ChainTarget::operatorIndex).toArray();
      chainPorts[o] = targets.stream().mapToInt(OperatorNode.ChainTarget::port).toArray();
      edges[o] = node.edgeTargets(o).toArray(new Edge[0]);
    }
    return (outputIndex, element) -> {
      if (outputIndex >= outputs) {
        return; // an output nobody consumes
      }
      int[] targetOps = chainOps[outputIndex];
      int[] ports = chainPorts[outputIndex];
      try {
        for (int i = 0; i < targetOps.length; i++) {
          deliver(ops[targetOps[i]], ports[i], element);
        }
        for (Edge e : edges[outputIndex]) {
          sendOnEdge(e, element);
        }
      } catch (RuntimeException ex) {
        throw ex;
      } catch (Exception ex) {
        throw new NodeException(ex);
      }
    };
  }

  /**
   * Hands one element to an operator. A keyed element (from a keyed edge, or emitted keyed inside
   * the chain) first sets the operator's current key, as Flink's {@code setKeyContextElement} does;
   * the operator gets the element without its wrapper.
   */
  private static void deliver(Operator op, int port, Object element) throws Exception {
    if (element instanceof KeyedElement keyed) {
      op.setCurrentKey(keyed.keyBytes());
      op.processElement(port, keyed.element());
    } else {
      op.processElement(port, element);
    }
  }

  private void sendOnEdge(Edge e, Object element) throws Exception {
    OutputChannel[] chans = outChannelsByEdge[e.id()];
    switch (e.kind()) {
      case FORWARD -> chans[instance].add(element);
      case KEYED -> {
        byte[] key = e.keyExtractor().keyBytes(element);
        chans[KeyGroups.instanceForKey(key, chans.length)].add(new KeyedElement(key, element));
      }
      case BROADCAST -> {
        for (OutputChannel c : chans) {
          c.add(element);
        }
      }
      case REBALANCE -> {
        int r = rebalanceCursor[e.id()];
        rebalanceCursor[e.id()] = (r + 1) % chans.length;
        chans[r].add(element);
      }
    }
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(RuntimeMessage.Credit.class, this::onCredit)
        .match(RuntimeMessage.class, this::onInput)
        .matchEquals(NodeMessages.START, m -> onStart())
        .matchEquals(NodeMessages.POLL, m -> guarded(this::onPoll))
        .matchEquals(NodeMessages.TICK, m -> guarded(this::onTick))
        .matchEquals(NodeMessages.CLOCK_ADVANCED, m -> onClockAdvanced())
        .build();
  }

  private interface Action {
    void run() throws Exception;
  }

  private void guarded(Action action) {
    if (stopped) {
      return;
    }
    try {
      action.run();
      afterWork();
    } catch (Throwable t) {
      fail(t);
    }
  }

  private void onClockAdvanced() {
    guarded(this::onTick);
    if (config.activity() != null) {
      config.activity().clockAdvanceHandled(getSelf());
    }
  }

  private void onCredit(RuntimeMessage.Credit credit) {
    if (stopped) {
      return;
    }
    guarded(
        () -> {
          outChannelsByEdge[credit.edgeId()][credit.receiverInstance()].onCredit();
          while (!pendingInputs.isEmpty() && !isBlocked()) {
            PendingInput pending = pendingInputs.poll();
            processInput(pending.message(), pending.sender());
          }
          if (source != null && !isBlocked() && !finishing && !inputsEnded) {
            getSelf().tell(NodeMessages.POLL, ActorRef.noSender());
          }
        });
  }

  private void onInput(RuntimeMessage message) {
    if (stopped) {
      return;
    }
    if (isBlocked() || !pendingInputs.isEmpty()) {
      pendingInputs.add(new PendingInput(message, getSender()));
      return;
    }
    ActorRef sender = getSender();
    guarded(() -> processInput(message, sender));
  }

  private void processInput(RuntimeMessage message, ActorRef sender) throws Exception {
    try {
      dispatchInput(message, sender);
      if (config.eagerBundles() && bundleOpen && !finishing) {
        finishBundle();
      }
    } finally {
      if (config.activity() != null) {
        config.activity().processed();
      }
    }
  }

  private void dispatchInput(RuntimeMessage message, ActorRef sender) throws Exception {
    if (message instanceof RuntimeMessage.EventBatch batch) {
      ensureBundle();
      int ch = batch.channel();
      Operator op = ops[channelTargetOp[ch]];
      int port = channelTargetPort[ch];
      Object[] elements = batch.elements();
      for (int i = 0; i < batch.size(); i++) {
        deliver(op, port, elements[i]);
      }
      bundleElements += batch.size();
      if (syncTime != null) {
        syncTime.inputHandled(vertex.id(), batch.syncStamp());
        bundleSyncHolds = push(bundleSyncHolds, bundleSyncHoldCount++, batch.syncStamp());
      }
      sender.tell(new RuntimeMessage.Credit(edgeOfChannel(ch), instance), getSelf());
      if (bundleElements >= config.maxBundleSize()) {
        finishBundle();
      }
    } else if (message instanceof RuntimeMessage.Watermark wm) {
      if (syncTime != null) {
        syncTime.inputHandled(vertex.id(), wm.syncStamp());
        watermarkSyncHolds = push(watermarkSyncHolds, watermarkSyncHoldCount++, wm.syncStamp());
      }
      int ch = wm.channel();
      if (wm.watermark() > channelWatermark[ch]) {
        channelWatermark[ch] = wm.watermark();
        onInputWatermarkMaybeChanged();
      }
    } else if (message instanceof RuntimeMessage.EndOfStream eos) {
      if (syncTime != null) {
        syncTime.inputHandled(vertex.id(), eos.syncStamp());
        watermarkSyncHolds = push(watermarkSyncHolds, watermarkSyncHoldCount++, eos.syncStamp());
      }
      int ch = eos.channel();
      if (!channelEnded[ch]) {
        channelEnded[ch] = true;
        channelWatermark[ch] = Long.MAX_VALUE;
        openChannels--;
        if (openChannels == 0) {
          startFinishing();
        } else {
          onInputWatermarkMaybeChanged();
        }
      }
    }
  }

  // Credits name the edge so the sender finds its output channel; the receiver derives the edge
  // from the channel number.
  private int edgeOfChannel(int channel) {
    int base = 0;
    for (Edge e : vertex.inputs()) {
      int width = e.kind() == EdgeKind.FORWARD ? 1 : e.source().parallelism();
      if (channel < base + width) {
        return e.id();
      }
      base += width;
    }
    throw new IllegalStateException("No edge for channel " + channel);
  }

  private static long[] push(long[] array, int index, long value) {
    long[] target = index < array.length ? array : Arrays.copyOf(array, array.length * 2);
    target[index] = value;
    return target;
  }

  /**
   * Lets go of the holds of the watermarks handled in this message: their consequences have been
   * sent, or user code is about to run a timer callback (which must not hold synchronized time).
   */
  private void releaseWatermarkSyncHolds() {
    for (int i = 0; i < watermarkSyncHoldCount; i++) {
      syncTime.outputReleased(vertex.id(), watermarkSyncHolds[i]);
    }
    watermarkSyncHoldCount = 0;
  }

  private void releaseBundleSyncHolds() {
    for (int i = 0; i < bundleSyncHoldCount; i++) {
      syncTime.outputReleased(vertex.id(), bundleSyncHolds[i]);
    }
    bundleSyncHoldCount = 0;
  }

  private void onInputWatermarkMaybeChanged() throws Exception {
    long min = Long.MAX_VALUE;
    for (long w : channelWatermark) {
      min = Math.min(min, w);
    }
    updatePortWatermarks();
    if (min > inputWatermark && min != Long.MAX_VALUE) {
      inputWatermark = min;
      advanceOperators(0);
    }
  }

  private void updatePortWatermarks() throws Exception {
    for (int p = 0; p < portWatermark.length; p++) {
      long w = Long.MAX_VALUE;
      for (int ch = 0; ch < channelWatermark.length; ch++) {
        if (channelPort[ch] == p) {
          w = Math.min(w, channelWatermark[ch]);
        }
      }
      if (w > portWatermark[p]) {
        portWatermark[p] = w;
        ensureBundle();
        ops[portOp[p]].advancePortWatermark(portNumber[p], w);
      }
    }
  }

  /** Advances the watermark of operators {@code from..n-1} in chain order. */
  private void advanceOperators(int from) throws Exception {
    if (bundleOpen) {
      finishBundle();
    }
    ensureBundle();
    for (int i = from; i < ops.length; i++) {
      long in = operatorInputWatermark(i);
      advanceOperator(i, in);
      opOutputWatermark[i] = Math.min(in, ops[i].outputWatermarkHold());
    }
    finishBundle();
  }

  private void advanceOperator(int i, long watermark) throws Exception {
    if (watermark > opInputWatermark[i]) {
      opInputWatermark[i] = watermark;
      ops[i].advanceWatermark(watermark);
    }
  }

  private long operatorInputWatermark(int i) {
    long in = inputWatermark;
    for (int u : upstreamOps[i]) {
      in = Math.min(in, opOutputWatermark[u]);
    }
    return in;
  }

  private void onPoll() throws Exception {
    if (finishing || inputsEnded || isBlocked()) {
      return; // resumed by credits
    }
    ensureBundle();
    SourceOperator.PollResult result = source.poll(config.batchSize());
    bundleElements += config.batchSize();
    long wm = source.currentWatermark();
    opOutputWatermark[0] = wm;
    if (result == SourceOperator.PollResult.DONE) {
      startFinishing();
      return;
    }
    if (bundleElements >= config.maxBundleSize()) {
      finishBundle();
    }
    if (wm > inputWatermark) {
      inputWatermark = wm;
      advanceOperators(1);
    }
    if (config.eagerBundles() && bundleOpen) {
      finishBundle();
    }
    if (result == SourceOperator.PollResult.MORE) {
      if (!isBlocked()) {
        getSelf().tell(NodeMessages.POLL, ActorRef.noSender());
      }
    } else {
      schedule(NodeMessages.POLL, config.eagerBundles() ? 1 : 5);
    }
  }

  private void onTick() throws Exception {
    scheduledTickAt = Long.MAX_VALUE;
    if (finishing) {
      return;
    }
    long now = config.clock().nowMillis();
    if (bundleOpen && now - bundleStartedAt >= config.maxBundleTimeMillis()) {
      finishBundle();
    }
    boolean fired = false;
    for (int i = 0; i < ops.length; i++) {
      if (ops[i].nextProcessingTimeWakeup() <= now) {
        ensureBundle();
        ops[i].advanceProcessingTime(now);
        fired = true;
      }
    }
    if (fired) {
      finishBundle();
    }
  }

  /** Bookkeeping after each handled message: output watermark, timers to schedule. */
  private void afterWork() throws Exception {
    try {
      scheduleAfterWork();
    } finally {
      if (syncTime != null && watermarkSyncHoldCount > 0) {
        releaseWatermarkSyncHolds();
      }
    }
  }

  private void scheduleAfterWork() throws Exception {
    if (stopped) {
      return;
    }
    if (finishing) {
      tryCompleteFinish();
      return;
    }
    if (inputsEnded) {
      startFinishing();
      if (finishing) {
        return;
      }
    }
    if (!bundleOpen) {
      emitOutputWatermarkIfAdvanced();
    }
    long next = Long.MAX_VALUE;
    if (bundleOpen) {
      next = bundleStartedAt + config.maxBundleTimeMillis();
    }
    if (!config.clock().isManual()) {
      for (Operator op : ops) {
        next = Math.min(next, op.nextProcessingTimeWakeup());
      }
    }
    if (next != Long.MAX_VALUE && next < scheduledTickAt) {
      scheduledTickAt = next;
      schedule(NodeMessages.TICK, Math.max(0, next - config.clock().nowMillis()));
    }
  }

  private void emitOutputWatermarkIfAdvanced() {
    long out = Long.MAX_VALUE;
    for (int i = 0; i < ops.length; i++) {
      long w =
          i == 0 && source != null
              ? source.currentWatermark()
              : Math.min(operatorInputWatermark(i), ops[i].outputWatermarkHold());
      opOutputWatermark[i] = w;
      out = Math.min(out, w);
    }
    if (out > outputWatermark && out != Long.MAX_VALUE) {
      outputWatermark = out;
      long watermark = out;
      sendToAll((c, stamp) -> c.sendWatermark(watermark, stamp));
    }
  }

  private interface StampedSend {
    void send(OutputChannel channel, long syncStamp);
  }

  /**
   * Sends on every output channel with one synchronized-time stamp, taken and held at every
   * receiver atomically: the receivers of one watermark must all wait for the same time, or one
   * could see a later stamp than its sibling and run its synchronized-time timers first.
   */
  private void sendToAll(StampedSend send) {
    if (syncTime == null) {
      for (OutputChannel c : allOutChannels) {
        send.send(c, 0);
      }
      return;
    }
    synchronized (syncTime) {
      long stamp = syncTime.outputTime(vertex.id());
      for (OutputChannel c : allOutChannels) {
        send.send(c, stamp);
      }
    }
  }

  private void ensureBundle() throws Exception {
    if (!bundleOpen) {
      bundleOpen = true;
      bundleElements = 0;
      bundleStartedAt = config.clock().nowMillis();
      for (Operator op : ops) {
        op.startBundle();
      }
    }
  }

  private void finishBundle() throws Exception {
    if (!bundleOpen) {
      return;
    }
    bundleOpen = false;
    for (Operator op : ops) {
      op.finishBundle();
    }
    sendToAll(OutputChannel::flush);
    if (syncTime != null && bundleSyncHoldCount > 0) {
      releaseBundleSyncHolds();
    }
  }

  /**
   * All input ended. Operators first see the final watermark; while one still has work of its own
   * (residual splittable work) the node keeps running its timers. Then the final watermark goes
   * through the chain in order, each operator flushes, and end of stream goes downstream.
   */
  private void startFinishing() throws Exception {
    if (finishing) {
      return;
    }
    if (!inputsEnded) {
      inputsEnded = true;
      if (bundleOpen) {
        finishBundle();
      }
      inputWatermark = Long.MAX_VALUE;
      if (source != null) {
        opOutputWatermark[0] = Long.MAX_VALUE;
      }
      updatePortWatermarks();
      advanceOperators(source != null ? 1 : 0);
    }
    for (Operator op : ops) {
      if (op.hasPendingWork()) {
        return; // afterWork() comes back here after the next timers fired
      }
    }
    if (bundleOpen) {
      finishBundle();
    }
    for (int i = source != null ? 1 : 0; i < ops.length; i++) {
      ensureBundle();
      advanceOperator(i, Long.MAX_VALUE);
      ops[i].endOfInput();
      finishBundle();
      opOutputWatermark[i] = Long.MAX_VALUE;
    }
    if (source != null) {
      ensureBundle();
      source.endOfInput();
      finishBundle();
    }
    finishing = true;
    sendToAll(
        (c, stamp) -> {
          c.sendWatermark(Long.MAX_VALUE, stamp);
          c.sendEndOfStream(stamp);
        });
    tryCompleteFinish();
  }

  private void tryCompleteFinish() {
    if (!finishing || stopped || isBlocked()) {
      return;
    }
    stopped = true;
    closeOperators();
    if (config.activity() != null) {
      config.activity().nodeStopped(getSelf());
    }
    monitor.nodeFinished();
    getContext().stop(getSelf());
  }

  private boolean isBlocked() {
    for (OutputChannel c : allOutChannels) {
      if (c.isBlocked()) {
        return true;
      }
    }
    return false;
  }

  private void schedule(Object message, long delayMillis) {
    getContext()
        .getSystem()
        .scheduler()
        .scheduleOnce(
            Duration.ofMillis(delayMillis),
            getSelf(),
            message,
            getContext().getDispatcher(),
            ActorRef.noSender());
  }

  private void fail(Throwable t) {
    Throwable cause = t instanceof NodeException && t.getCause() != null ? t.getCause() : t;
    stopped = true;
    closeOperators();
    monitor.nodeFailed(cause);
    getContext().stop(getSelf());
  }

  private void closeOperators() {
    if (ops == null) {
      return;
    }
    for (Operator op : ops) {
      if (op == null) {
        continue;
      }
      try {
        op.close();
      } catch (Throwable ignored) {
        // Closing is best effort; the first failure is what the user needs to see.
      }
    }
    ops = new Operator[0];
  }

  @Override
  public void postStop() {
    if (!stopped) {
      stopped = true;
      closeOperators();
    }
  }

  /** Wraps checked exceptions thrown by operators inside {@link Output#emit}. */
  static final class NodeException extends RuntimeException {
    NodeException(Throwable cause) {
      super(cause);
    }
  }

  private final class Context implements OperatorContext {
    private final int op;

    Context(int op) {
      this.op = op;
    }

    @Override
    public Output output() {
      return opOutputs[op];
    }

    @Override
    public int instanceIndex() {
      return instance;
    }

    @Override
    public int parallelism() {
      return vertex.parallelism();
    }

    @Override
    public Path stateDirectory() {
      return config.stateRoot().resolve("v" + vertex.id() + "-op" + op + "-i" + instance);
    }

    @Override
    public long currentProcessingTime() {
      return config.clock().nowMillis();
    }

    @Override
    public long currentInputWatermark() {
      return operatorInputWatermark(op);
    }

    @Override
    public long currentSynchronizedProcessingTime() {
      long now = config.clock().nowMillis();
      long time = syncTime == null ? now : Math.min(now, syncTime.inputTime(vertex.id()));
      lastSynchronizedTime = Math.max(lastSynchronizedTime, time);
      return lastSynchronizedTime;
    }

    @Override
    public void userTimerCallbackStarts() {
      if (syncTime != null && watermarkSyncHoldCount > 0) {
        releaseWatermarkSyncHolds();
      }
    }
  }
}
