package io.arcon.runtime.node;

import io.arcon.runtime.epoch.EpochAlignment;
import io.arcon.runtime.epoch.EpochFaultInjector;
import io.arcon.runtime.epoch.EpochGivenUpException;
import io.arcon.runtime.epoch.EpochParticipation;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.bundle.BundleController;
import io.arcon.runtime.node.chain.ChainException;
import io.arcon.runtime.node.chain.OperatorChain;
import io.arcon.runtime.node.finish.FinishProtocol;
import io.arcon.runtime.node.input.InputValve;
import io.arcon.runtime.node.input.WatermarkAlignment;
import io.arcon.runtime.node.output.EdgeOutputs;
import io.arcon.runtime.node.output.MessageSink;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.observe.NodeStats;
import io.arcon.runtime.operator.SourceOperator;
import io.arcon.runtime.operator.StateUsage;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One parallel instance of a {@link Vertex}, as a plain single-threaded object (Flink's mailbox
 * model): its host calls one method per message, never two at once. It is composed of the {@link
 * InputValve} (channel and port watermarks), the {@link OperatorChain} (the fused operators and
 * their watermarks), the {@link EdgeOutputs} (batches under credit-based flow control), the {@link
 * BundleController} and the {@link FinishProtocol}; synchronized time and test-stream activity are
 * {@link SynchronizedTime} and {@link NodeActivity} strategies.
 *
 * <p>A failure in any step stops the node and reports the user's exception to the host.
 */
public final class NodeTask {
  /**
   * How long the input watermark may stand still while watermark alignment holds input before it
   * lets everything go (the lagging channel may be an idle source).
   */
  static final long ALIGNMENT_IDLE_MILLIS = 200;

  private final Vertex vertex;
  private final int instance;
  private final RuntimeConfig config;
  private final NodeEnvironment env;
  private final SynchronizedTime syncTime;
  private final NodeActivity activity;
  private final InputValve valve;
  private final EdgeOutputs outputs;
  private final OperatorChain chain;
  private final BundleController bundle;
  private final FinishProtocol finish;
  private final NodeStats stats;
  private long reportedSent;

  /** An input that arrived while output was blocked, with where its credit goes back to. */
  private record PendingInput(RuntimeMessage message, MessageSink sender) {}

  private final ArrayDeque<PendingInput> pendingInputs = new ArrayDeque<>();
  private final EpochAlignment<PendingInput> alignment;

  /** Input of channels far ahead in event time, held back; null unless the chain sorts input. */
  private WatermarkAlignment<PendingInput> watermarkAlignment;

  private boolean releasingAligned;

  /** A {@link NodeSignal#POLL} is in the mailbox (see {@link #requestPoll}). */
  private boolean pollQueued;

  /** A {@link NodeSignal#POLL_LATER} is scheduled (see {@link #requestPollLater}). */
  private boolean pollScheduled;

  private long scheduledTickAt = Long.MAX_VALUE;
  private long lastSnapshotEpoch;

  public NodeTask(
      Vertex vertex,
      int instance,
      RuntimeConfig config,
      NodeEnvironment env,
      SynchronizedTime syncTime,
      NodeActivity activity) {
    this.vertex = vertex;
    this.instance = instance;
    this.config = config;
    this.env = env;
    this.syncTime = syncTime;
    this.activity = activity;
    this.stats = env.stats() != null ? env.stats() : NodeStats.unobserved(vertex.id(), instance);
    this.valve = new InputValve(vertex, instance);
    this.outputs =
        new EdgeOutputs(
            vertex,
            instance,
            env,
            config.batchSize(),
            config.creditsPerChannel(),
            syncTime,
            activity);
    this.chain = new OperatorChain(vertex, instance, outputs);
    this.bundle =
        new BundleController(
            new BundleController.Bundle() {
              @Override
              public void start() throws Exception {
                chain.startBundle();
              }

              @Override
              public void finish() throws Exception {
                chain.finishBundle();
                outputs.flush();
                syncTime.releaseBundleHolds();
                if (stats.stateSampleDue()) {
                  reportState();
                }
              }
            },
            config.clock(),
            config.maxBundleSize(),
            config.maxBundleTimeMillis(),
            config.eagerBundles());
    this.finish = new FinishProtocol(new Finishing());
    this.alignment = new EpochAlignment<>(valve.channelCount(), valve::isEnded);
  }

  /** Opens the operators (user setup code runs here), then tells the host the node is ready. */
  public void setUp() {
    try {
      chain.open(config, syncTime, env::runInMailbox);
      if (chain.sortsInputByEventTime()
          && valve.channelCount() > 1
          && !config.clock().isManual()
          && config.maxWatermarkDriftMillis() >= 0) {
        watermarkAlignment =
            new WatermarkAlignment<>(
                valve.channelCount(),
                valve::channelWatermark,
                config.maxWatermarkDriftMillis(),
                ALIGNMENT_IDLE_MILLIS,
                config.clock().nowMillis());
      }
      env.ready();
    } catch (Throwable t) {
      fail(t);
    }
  }

  /**
   * Every node of the job is set up. Work starts only now, so no node finishes (and tears its DoFns
   * down) while another still runs its setup: user code sees all setups before any teardown.
   */
  public void start() {
    if (finish.isStopped()) {
      return;
    }
    stats.started();
    try {
      if (config.restore() != null && config.restore().startsFinished(vertex.id(), instance)) {
        // It had ended all its work in the restored epoch: it only ends its outputs again.
        finish.inputsEnded();
      } else if (chain.source() != null) {
        requestPoll();
      } else if (valve.channelCount() == 0) {
        // A chain with neither inputs nor a source (e.g. Flatten of nothing) is immediately done.
        finish.inputsEnded();
      }
    } catch (Throwable t) {
      fail(t);
    }
  }

  /** A batch, watermark or end of stream from {@code sender}; held back while output is blocked. */
  public void onInput(RuntimeMessage message, MessageSink sender) {
    if (finish.isStopped()) {
      return;
    }
    if (outputs.isBlocked() || !pendingInputs.isEmpty()) {
      pendingInputs.add(new PendingInput(message, sender));
      return;
    }
    guarded(() -> processInput(message, sender));
  }

  /** A receiver consumed a batch: send more, resume held-back input and the source. */
  public void onCredit(RuntimeMessage.Credit credit) {
    guarded(
        () -> {
          outputs.onCredit(credit.edgeId(), credit.receiverInstance());
          while (!pendingInputs.isEmpty() && !outputs.isBlocked()) {
            PendingInput pending = pendingInputs.poll();
            processInput(pending.message(), pending.sender());
          }
          releaseAligned();
          if (chain.source() != null && !outputs.isBlocked() && !finish.inputsHaveEnded()) {
            requestPoll();
          }
        });
  }

  public void onSignal(NodeSignal signal) {
    switch (signal) {
      case START -> start();
      case POLL -> {
        pollQueued = false;
        guarded(this::poll);
      }
      case POLL_LATER -> {
        pollScheduled = false;
        guarded(this::poll);
      }
      case TICK -> guarded(this::tick);
      case CLOCK_ADVANCED -> {
        guarded(this::tick);
        activity.clockAdvanceHandled();
      }
    }
  }

  /**
   * A task an operator asked to run on this node (see {@code OperatorContext.mailbox()}): the open
   * bundle is finished first, so the task sees the state as of a bundle boundary.
   */
  public void runTask(Runnable task) {
    guarded(
        () -> {
          if (bundle.isOpen()) {
            bundle.finish();
          }
          task.run();
        });
  }

  /** The host stops the node (job ended or cancelled): operators are closed if they are not yet. */
  public void close() {
    finish.stop();
    chain.close();
    stats.endedIfRunning(NodeStats.Status.CANCELLED);
  }

  private interface Work {
    void run() throws Exception;
  }

  private void guarded(Work work) {
    if (finish.isStopped()) {
      return;
    }
    NodeWorkScope scope = config.workScope();
    Object token = scope.enter();
    try {
      work.run();
      afterWork();
    } catch (Throwable t) {
      fail(t);
    } finally {
      scope.exit(token);
    }
  }

  private void processInput(RuntimeMessage message, MessageSink sender) throws Exception {
    int channel = channelOf(message);
    if (watermarkAlignment != null
        && alignment.aligningEpoch() == 0
        && watermarkAlignment.holds(channel)) {
      // Counted as processed only when it is: a held message is still in flight.
      watermarkAlignment.hold(channel, new PendingInput(message, sender));
      return;
    }
    admit(message, sender, channel);
    releaseAligned();
  }

  /**
   * Goes on with input that watermark alignment held, as far as it may: of channels no longer far
   * ahead, or all of it once the input watermark stood still for the idle time.
   */
  private void releaseAligned() throws Exception {
    if (watermarkAlignment == null || releasingAligned || !watermarkAlignment.isHolding()) {
      return;
    }
    releasingAligned = true;
    try {
      PendingInput next;
      while (!outputs.isBlocked()
          && (next = watermarkAlignment.nextReleased(config.clock().nowMillis())) != null) {
        admit(next.message(), next.sender(), channelOf(next.message()));
      }
    } finally {
      releasingAligned = false;
    }
  }

  private void admit(RuntimeMessage message, MessageSink sender, int channel) throws Exception {
    if (alignment.holds(channel)) {
      // Counted as processed only when it is: a held message is still in flight.
      alignment.hold(new PendingInput(message, sender));
      return;
    }
    try {
      dispatch(message, sender);
      if (!finish.isFinishing()) {
        bundle.messageHandled();
      }
    } finally {
      activity.messageProcessed();
    }
  }

  private void dispatch(RuntimeMessage message, MessageSink sender) throws Exception {
    if (message instanceof RuntimeMessage.EventBatch batch) {
      int ch = batch.channel();
      stats.recordsIn(batch.size());
      int operator = valve.targetOperator(ch);
      int port = valve.targetPort(ch);
      Object[] elements = batch.elements();
      byte[][] keys = batch.keys();
      int size = batch.size();
      // In slices, so that a bundle ends at --maxBundleSize or --maxBundleTimeMills inside a batch.
      for (int from = 0; from < size; ) {
        bundle.ensureOpen();
        int to = from + bundle.slice(size - from);
        chain.deliver(operator, port, elements, keys, from, to);
        bundle.handedIn(to - from);
        from = to;
      }
      syncTime.batchHandled(batch.syncStamp());
      sender.send(new RuntimeMessage.Credit(valve.edgeId(ch), instance));
    } else if (message instanceof RuntimeMessage.Watermark wm) {
      syncTime.watermarkHandled(wm.syncStamp());
      if (valve.onWatermark(wm.channel(), wm.watermark())) {
        inputWatermarkMayHaveRisen();
      }
    } else if (message instanceof RuntimeMessage.EndOfStream eos) {
      syncTime.watermarkHandled(eos.syncStamp());
      if (valve.onEndOfStream(eos.channel())) {
        // Never all ended while aligning: the aligned channels' ends are held.
        if (valve.allEnded()) {
          finish.inputsEnded();
        } else {
          inputWatermarkMayHaveRisen();
          if (alignment.onChannelEnded()) {
            epochAligned(alignment.aligningEpoch());
          }
        }
      }
    } else if (message instanceof RuntimeMessage.EpochMarker marker) {
      if (watermarkAlignment != null && alignment.aligningEpoch() == 0) {
        // Every channel's marker must come through: input held for drift goes on first.
        watermarkAlignment.suspend();
        releaseAligned();
      }
      if (alignment.onMarker(marker.channel(), marker.epoch()) == EpochAlignment.Outcome.ALIGNED) {
        epochAligned(marker.epoch());
      }
    }
  }

  private static int channelOf(RuntimeMessage message) {
    if (message instanceof RuntimeMessage.EventBatch batch) {
      return batch.channel();
    } else if (message instanceof RuntimeMessage.Watermark wm) {
      return wm.channel();
    } else if (message instanceof RuntimeMessage.EndOfStream eos) {
      return eos.channel();
    } else if (message instanceof RuntimeMessage.EpochMarker marker) {
      return marker.channel();
    }
    throw new IllegalArgumentException("Not an input message: " + message);
  }

  /**
   * Every open input delivered the marker of {@code epoch}: snapshot, forward the marker, then go
   * on with the input held back meanwhile, before anything that arrived while output was blocked.
   */
  private void epochAligned(long epoch) throws Exception {
    snapshotEpoch(epoch);
    List<PendingInput> released = alignment.release();
    for (int i = released.size() - 1; i >= 0; i--) {
      pendingInputs.addFirst(released.get(i));
    }
    while (!pendingInputs.isEmpty() && !outputs.isBlocked()) {
      PendingInput pending = pendingInputs.poll();
      processInput(pending.message(), pending.sender());
    }
  }

  /**
   * The coordinator asks this node (a source, or a node whose inputs ended while it still works) to
   * cut {@code epoch}. A node that already sent its end of stream takes no more part: it counts as
   * finished once it completes. A trigger of an epoch the node already cut (its acknowledgement was
   * still on its way) is ignored.
   */
  public void onEpochTrigger(long epoch) {
    guarded(
        () -> {
          if (epoch > lastSnapshotEpoch && !finish.isFinishing()) {
            snapshotEpoch(epoch);
          }
        });
  }

  /** Epoch {@code epoch} is durable: the operators finalize what waited for it. */
  public void onEpochCompleted(long epoch) {
    guarded(
        () -> {
          // In a bundle of its own: input released by the epoch (stable input) emits output.
          bundle.finish();
          bundle.ensureOpen();
          chain.epochCompleted(epoch);
          bundle.finish();
        });
  }

  /**
   * Snapshots every operator between bundles, sends the marker behind everything emitted so far,
   * and acknowledges once the asynchronous parts are done. A failing synchronous part fails the
   * node (as any operator failure); a failing asynchronous part only gives the epoch up.
   */
  private void snapshotEpoch(long epoch) throws Exception {
    EpochParticipation epochs = env.epochs();
    if (epochs == null) {
      throw new IllegalStateException("Epoch " + epoch + " reached a job without checkpointing");
    }
    lastSnapshotEpoch = epoch;
    if (chain.holdsOutput()) {
      // Ahead of the marker, inside a bundle as any output: the epoch then holds it downstream.
      bundle.ensureOpen();
      chain.emitHeldOutput();
    }
    if (bundle.isOpen()) {
      bundle.finish();
    }
    EpochFaultInjector faults = config.faults();
    if (faults != null) {
      faults.beforeSnapshot(vertex.name(), instance, epoch);
    }
    List<CompletableFuture<?>> asyncParts;
    try {
      asyncParts =
          chain.snapshotState(
              epoch, operator -> epochs.operatorDirectory(epoch, vertex.id(), instance, operator));
    } catch (Exception e) {
      // Given up (timed out, or declined elsewhere) before or while this node wrote it: its files
      // may have been removed under the write. The nodes behind still align on the marker, so it
      // goes on; there is nothing to write or acknowledge, and the job goes on.
      if (!EpochGivenUpException.isCauseOf(e) && !epochs.givenUp(epoch)) {
        throw e;
      }
      outputs.sendEpochMarker(epoch);
      return;
    }
    outputs.sendEpochMarker(epoch);
    if (faults != null) {
      faults.beforeAcknowledge(vertex.name(), instance, epoch);
    }
    int vertexId = vertex.id();
    CompletableFuture.allOf(asyncParts.toArray(new CompletableFuture<?>[0]))
        .whenComplete(
            (ignored, failure) -> {
              if (failure == null) {
                epochs.acknowledged(epoch, vertexId, instance);
              } else {
                epochs.declined(epoch, vertexId, instance, failure);
              }
            });
  }

  private void inputWatermarkMayHaveRisen() throws Exception {
    long combined = valve.combinedWatermark();
    if (watermarkAlignment != null) {
      watermarkAlignment.inputWatermarkIs(combined, config.clock().nowMillis());
    }
    advancePorts();
    if (combined > chain.inputWatermark() && combined != Long.MAX_VALUE) {
      advanceInputWatermark(combined);
    }
  }

  private void advancePorts() throws Exception {
    valve.advancePorts(
        (operator, port, watermark) -> {
          bundle.ensureOpen();
          chain.advancePortWatermark(operator, port, watermark);
        });
  }

  /** Advances the chain in a bundle of its own, so its firings are flushed together. */
  private void advanceInputWatermark(long watermark) throws Exception {
    bundle.finish();
    bundle.ensureOpen();
    chain.advanceInputWatermark(watermark);
    bundle.finish();
  }

  private void poll() throws Exception {
    if (finish.inputsHaveEnded() || outputs.isBlocked()) {
      return; // resumed by credits
    }
    SourceOperator source = chain.source();
    bundle.ensureOpen();
    // A slice of a batch: a slow chain reads one element per poll, so that its bundles end on time
    // and the mailbox's other work (epoch markers, a cancel) comes between.
    int polled = bundle.slice(config.batchSize());
    SourceOperator.PollResult result = source.poll(polled);
    long watermark = source.currentWatermark();
    chain.sourceWatermarkIs(watermark);
    if (result == SourceOperator.PollResult.DONE) {
      finish.inputsEnded();
      return;
    }
    bundle.handedIn(polled);
    if (watermark > chain.inputWatermark()) {
      advanceInputWatermark(watermark);
    }
    bundle.messageHandled();
    if (result == SourceOperator.PollResult.MORE) {
      if (!outputs.isBlocked()) {
        requestPoll();
      }
    } else {
      requestPollLater(bundle.isEager() ? 1 : 5);
    }
  }

  /**
   * Polls the source again as soon as the mailbox gets to it, unless such a poll is queued already.
   *
   * <p>Why at most one of each kind: every signal handled asks for the next, so each extra one (a
   * credit arriving while a delayed poll was pending, say) would start a poll loop of its own that
   * never ends; an idle source accumulated thousands and spun a core.
   */
  private void requestPoll() {
    if (!pollQueued) {
      pollQueued = true;
      env.signalSelf(NodeSignal.POLL);
    }
  }

  /** Polls the source after {@code delayMillis}, unless a poll is queued or scheduled already. */
  private void requestPollLater(long delayMillis) {
    if (!pollQueued && !pollScheduled) {
      pollScheduled = true;
      env.signalSelfLater(NodeSignal.POLL_LATER, delayMillis);
    }
  }

  private void tick() throws Exception {
    scheduledTickAt = Long.MAX_VALUE;
    if (finish.isFinishing()) {
      return;
    }
    long now = config.clock().nowMillis();
    releaseAligned();
    bundle.finishIfExpired(now);
    if (chain.advanceProcessingTime(now, bundle)) {
      bundle.finish();
    }
  }

  /** Bookkeeping after each handled message: the finish protocol, output watermark, wake-ups. */
  private void afterWork() throws Exception {
    try {
      scheduleAfterWork();
    } finally {
      syncTime.releaseWatermarkHolds();
    }
    reportFigures();
  }

  private void reportState() {
    StateUsage state = chain.stateUsage();
    if (state != null) {
      stats.state(state.engine(), state.approximateBytes());
    }
  }

  /** Publishes what changed in this message's work; cheap enough for every message. */
  private void reportFigures() {
    long sent = outputs.sentElements();
    if (sent != reportedSent) {
      stats.recordsOut(sent - reportedSent);
      reportedSent = sent;
    }
    stats.inputWatermark(chain.inputWatermark());
    stats.outputBlocked(outputs.isBlocked());
  }

  private void scheduleAfterWork() throws Exception {
    if (finish.isStopped() || finish.afterWork()) {
      return;
    }
    if (!bundle.isOpen()) {
      long watermark = chain.outputWatermark();
      outputs.advanceWatermark(watermark);
      stats.outputWatermark(watermark);
    }
    long next = bundle.deadline();
    if (!config.clock().isManual()) {
      next = Math.min(next, chain.nextProcessingTimeWakeup());
      if (watermarkAlignment != null) {
        next = Math.min(next, watermarkAlignment.deadline());
      }
    }
    if (next != Long.MAX_VALUE && next < scheduledTickAt) {
      scheduledTickAt = next;
      env.signalSelfLater(NodeSignal.TICK, Math.max(0, next - config.clock().nowMillis()));
    }
  }

  private void fail(Throwable t) {
    finish.stop();
    chain.close();
    stats.ended(NodeStats.Status.FAILED);
    env.failed(ChainException.causeOf(t));
  }

  /** The node's side of the {@link FinishProtocol}. */
  private final class Finishing implements FinishProtocol.Steps {
    @Override
    public void deliverFinalWatermark() throws Exception {
      if (env.epochs() != null && chain.source() == null) {
        env.epochs().inputsEnded(vertex.id(), instance);
      }
      bundle.finish();
      chain.inputEnded();
      advancePorts();
      advanceInputWatermark(Long.MAX_VALUE);
    }

    @Override
    public boolean hasPendingWork() {
      return chain.hasPendingWork();
    }

    @Override
    public void endOperators() throws Exception {
      bundle.finish();
      chain.endOfInput(bundle);
    }

    @Override
    public void sendEndOfStream() {
      outputs.endOfStream();
      stats.outputWatermark(Long.MAX_VALUE);
    }

    @Override
    public boolean outputBlocked() {
      return outputs.isBlocked();
    }

    @Override
    public void complete() {
      reportFigures();
      reportState();
      stats.ended(NodeStats.Status.FINISHED);
      chain.close();
      activity.stopped();
      env.finished();
    }
  }
}
