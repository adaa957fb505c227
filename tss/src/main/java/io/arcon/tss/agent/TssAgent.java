package io.arcon.tss.agent;

import io.arcon.tss.TssDefaults;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.KeyLiterals;
import io.arcon.tss.model.Names;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.AppMessage;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.proto.Finished;
import io.arcon.tss.proto.Recording;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.TssControlGrpc;
import io.arcon.tss.proto.VersionFailed;
import io.arcon.tss.proto.VersionSealed;
import io.arcon.tss.proto.Watermark;
import io.arcon.tss.proto.WrittenFile;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.StateInfos;
import io.arcon.tss.write.OutputMetadata;
import io.arcon.tss.write.ParquetVersionWriter;
import io.arcon.tss.write.ParquetWarmUp;
import io.arcon.tss.write.PartFile;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app side of TSS: registers an app and its state catalog with the control plane, reports the
 * app's watermark, and answers extraction assignments by reading rows from the app's {@link
 * StateSource} and writing them as Parquet into the directory the control plane names.
 *
 * <p>The agent keeps one bidirectional stream open. When it breaks (control plane restarted,
 * network) the agent reconnects with exponential backoff, registers again and re-sends its last
 * watermark; the control plane then re-sends every assignment the app has not sealed. Extractions
 * run one at a time on the agent's own thread, never on the app's threads.
 *
 * <p>Nothing the control plane does reaches the app as an exception: without a control plane the
 * agent says so once at INFO and retries in the background; when another running app has its name,
 * it says so once at WARN and retries at its longest backoff (see {@link ConnectionLog}).
 */
public final class TssAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TssAgent.class);

  private final String app;
  private final StateSource source;
  private final String endpoint;
  private final ManagedChannel channel;
  private final TssControlGrpc.TssControlStub stub;
  private final ParquetVersionWriter writer;
  private final Duration minBackoff;
  private final Duration maxBackoff;
  private final ScheduledExecutorService connector;
  private final ScheduledExecutorService extractor;

  /**
   * Per TSS name, how often the control plane cancelled it (dropped it while this app had its
   * assignments): an assignment remembers the count it arrived under and is skipped once it grew.
   */
  private final Map<String, Long> cancellations = new ConcurrentHashMap<>();

  /**
   * This agent across its reconnects: lets the control plane tell its new stream from another app.
   */
  private final String instance = UUID.randomUUID().toString();

  private final ConnectionLog connectionLog;

  /** See {@link Builder#onEmbeddedControlPlaneLost}; null: wait for the control plane. */
  private final Consumer<Path> embeddedLost;

  private final Object lock = new Object();
  private StreamObserver<AppMessage> requests; // guarded by lock
  private long streamGeneration; // guarded by lock
  private boolean registered; // guarded by lock
  private Instant watermark; // guarded by lock
  private Instant historyFrom; // guarded by lock
  private Set<String> recording = Set.of(); // guarded by lock
  private Instant finishedEnd; // guarded by lock; set by finish()
  private CountDownLatch
      drainedLatch; // guarded by lock; set by finish(), opened by Drained or close
  private boolean drained; // guarded by lock; the control plane answered the last finish()
  private Duration backoff; // guarded by lock
  private String embeddedHome = ""; // guarded by lock; what the last Registered said
  private String lastError; // guarded by lock
  private boolean closed; // guarded by lock
  private CountDownLatch registeredLatch = new CountDownLatch(1); // guarded by lock

  private TssAgent(Builder b) {
    this.app = b.app;
    this.source = b.source;
    this.endpoint = b.host + ":" + b.port;
    this.channel =
        NettyChannelBuilder.forAddress(b.host, b.port)
            .usePlaintext()
            .keepAliveTime(30, TimeUnit.SECONDS)
            .keepAliveWithoutCalls(true)
            .build();
    TssControlGrpc.TssControlStub base = TssControlGrpc.newStub(channel);
    if (b.token != null && !b.token.isEmpty()) {
      Metadata headers = new Metadata();
      headers.put(
          Metadata.Key.of(TssDefaults.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER),
          "Bearer " + b.token);
      base = base.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    this.stub = base;
    this.writer = b.writer;
    this.minBackoff = b.minBackoff;
    this.maxBackoff = b.maxBackoff;
    this.embeddedLost = b.embeddedLost;
    this.backoff = b.minBackoff;
    this.connectionLog = new ConnectionLog(app, endpoint);
    this.connector = daemonExecutor("tss-agent-" + app + "-connect");
    this.extractor = daemonExecutor("tss-agent-" + app + "-extract");
  }

  public static Builder builder(String app, StateSource source) {
    return new Builder(app, source);
  }

  /** Configures a {@link TssAgent}; defaults: the loopback control plane, no token. */
  public static final class Builder {
    private final String app;
    private final StateSource source;
    private String host = TssDefaults.DEFAULT_HOST;
    private int port = TssDefaults.PORT;
    private String token;
    private ParquetVersionWriter writer = new ParquetVersionWriter();
    private Duration minBackoff = Duration.ofMillis(100);
    private Duration maxBackoff = Duration.ofSeconds(5);
    private Consumer<Path> embeddedLost;

    private Builder(String app, StateSource source) {
      this.app = Names.requireValid(app, "app");
      this.source = Objects.requireNonNull(source, "state source");
    }

    public Builder endpoint(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    public Builder token(String token) {
      this.token = token;
      return this;
    }

    public Builder writer(ParquetVersionWriter writer) {
      this.writer = Objects.requireNonNull(writer, "writer");
      return this;
    }

    /** Reconnect delays: start at {@code min}, double per failed attempt, at most {@code max}. */
    public Builder backoff(Duration min, Duration max) {
      if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "backoff needs 0 < min <= max, got min " + min + ", max " + max);
      }
      this.minBackoff = min;
      this.maxBackoff = max;
      return this;
    }

    /**
     * What to do when the control plane the agent was registered with ran embedded in another app's
     * JVM and cannot be reached any more (that app stopped): {@code takeOver} gets the lost control
     * plane's home and may start one there, before the agent reconnects. Called on the agent's
     * connector thread before each such reconnect; never for a standalone control plane.
     */
    public Builder onEmbeddedControlPlaneLost(Consumer<Path> takeOver) {
      this.embeddedLost = Objects.requireNonNull(takeOver, "takeOver");
      return this;
    }

    /** Starts connecting in the background and returns at once. */
    public TssAgent start() {
      TssAgent agent = new TssAgent(this);
      agent.connector.execute(agent::connect);
      return agent;
    }
  }

  public String app() {
    return app;
  }

  /**
   * Reports the app's watermark: every input with an earlier event time has been applied to its
   * state. Versions at T &lt; watermark become extractable. Sent now if connected, else on
   * reconnect. The app keeps its whole state history (no horizon).
   */
  public void reportWatermark(Instant newWatermark) {
    reportWatermark(newWatermark, null);
  }

  /**
   * Reports the app's watermark and its history horizon. Sent now if connected, else on reconnect.
   *
   * @param newWatermark every input with an earlier event time has been applied to the state
   * @param newHistoryFrom the oldest version time the app can still extract (its state history is
   *     pruned before it), or null for no limit; the control plane refuses a TSS that starts
   *     earlier
   */
  public void reportWatermark(Instant newWatermark, Instant newHistoryFrom) {
    Objects.requireNonNull(newWatermark, "watermark");
    synchronized (lock) {
      watermark = newWatermark;
      historyFrom = newHistoryFrom;
      if (registered) {
        sendLocked(watermarkMessage(newWatermark, newHistoryFrom));
      }
    }
  }

  /**
   * Reports the app's watermark-cut states whose history it records now (every instance acted on
   * {@link StateSource#statesRead}); {@code DESCRIBE APP} shows it. Sent now if connected, else on
   * reconnect.
   */
  public void reportRecording(Set<String> states) {
    Set<String> copy = Set.copyOf(states);
    synchronized (lock) {
      if (copy.equals(recording)) {
        return;
      }
      recording = copy;
      if (registered) {
        sendLocked(recordingMessage(copy));
      }
    }
  }

  private static AppMessage recordingMessage(Set<String> states) {
    return AppMessage.newBuilder()
        .setRecording(Recording.newBuilder().addAllStates(new TreeSet<>(states)))
        .build();
  }

  /**
   * The app's input has ended (a bounded run): tells the control plane, keeps answering its
   * extraction assignments, and waits until every version due for the app is sealed. The control
   * plane then stops each TSS over the app at its first version at or after {@code end}.
   *
   * <p>Never stalls a pipeline on a missing control plane: returns false at once when the agent is
   * not registered, and after {@code timeout} otherwise. If the stream breaks meanwhile the agent
   * registers again, says Finished again and keeps waiting.
   *
   * @param end the first instant after the app's last event: every version at T &gt;= end equals
   *     its final state
   * @return true once the control plane answered Drained: the app may drop its state
   */
  public boolean finish(Instant end, Duration timeout) {
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(timeout, "timeout");
    CountDownLatch latch;
    synchronized (lock) {
      if (!registered) {
        LOG.info("app {} finished without a TSS control plane; nothing to drain", app);
        return false;
      }
      finishedEnd = end;
      drained = false;
      drainedLatch = new CountDownLatch(1);
      latch = drainedLatch;
      sendLocked(finishedMessage(end));
    }
    LOG.info("app {} finished at {}; waiting up to {} for its TSS versions", app, end, timeout);
    try {
      latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      synchronized (lock) {
        if (drained) {
          LOG.info("app {}: every TSS version due for it is sealed", app);
          return true;
        }
        if (closed) {
          return false; // closed while waiting
        }
      }
      LOG.warn(
          "app {}: TSS versions due for it were not all sealed within {}; finishing anyway",
          app,
          timeout);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether the agent is currently registered with the control plane. */
  public boolean isRegistered() {
    synchronized (lock) {
      return registered;
    }
  }

  /** The last reason the stream broke, or null. */
  public String lastError() {
    synchronized (lock) {
      return lastError;
    }
  }

  /** Waits until the agent is registered (on its current or a new stream). */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    CountDownLatch latch;
    synchronized (lock) {
      if (registered) {
        return true;
      }
      latch = registeredLatch;
    }
    return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  // ------------------------------------------------------------------ stream

  private void connect() {
    Register register;
    try {
      // Built before the stream opens: a source that cannot describe its states yet (still
      // starting) is retried with backoff instead of killing the connector thread.
      register = registerMessage();
    } catch (RuntimeException e) {
      long generation;
      synchronized (lock) {
        generation = ++streamGeneration;
      }
      streamEnded(
          generation,
          Status.FAILED_PRECONDITION.withDescription(
              "the state source cannot list its states: " + e.getMessage()));
      return;
    }
    synchronized (lock) {
      if (closed) {
        return;
      }
      long generation = ++streamGeneration;
      requests = stub.connect(new Responses(generation));
      sendLocked(AppMessage.newBuilder().setRegister(register).build());
    }
    LOG.debug("agent {} opened a stream to {}", app, endpoint);
  }

  private Register registerMessage() {
    Register.Builder register = Register.newBuilder().setApp(app).setInstance(instance);
    for (StateDescriptor d : source.states()) {
      register.addStates(StateInfos.toProto(d));
    }
    return register.build();
  }

  private static AppMessage watermarkMessage(Instant watermark, Instant historyFrom) {
    Watermark.Builder message = Watermark.newBuilder().setWatermark(ProtoTime.toProto(watermark));
    if (historyFrom != null) {
      message.setHistoryFrom(ProtoTime.toProto(historyFrom));
    }
    return AppMessage.newBuilder().setWatermark(message).build();
  }

  private static AppMessage finishedMessage(Instant end) {
    return AppMessage.newBuilder()
        .setFinished(Finished.newBuilder().setEnd(ProtoTime.toProto(end)))
        .build();
  }

  /** Sends on the current stream; a broken stream is noticed by its response observer. */
  private void sendLocked(AppMessage message) {
    if (requests == null) {
      return;
    }
    try {
      requests.onNext(message);
    } catch (RuntimeException e) {
      LOG.debug("agent {} could not send: {}", app, e.toString());
    }
  }

  private void send(long generation, AppMessage message) {
    synchronized (lock) {
      if (generation == streamGeneration && registered) {
        sendLocked(message);
      }
      // Otherwise the stream the assignment came on is gone; the control plane re-sends the
      // assignment on the new stream and the extraction is redone.
    }
  }

  private final class Responses implements StreamObserver<ControlMessage> {
    private final long generation;

    Responses(long generation) {
      this.generation = generation;
    }

    @Override
    public void onNext(ControlMessage message) {
      switch (message.getBodyCase()) {
        case REGISTERED -> {
          synchronized (lock) {
            if (generation != streamGeneration) {
              return;
            }
            registered = true;
            embeddedHome = message.getRegistered().getEmbeddedHome();
            backoff = minBackoff;
            lastError = null;
            registeredLatch.countDown();
            if (watermark != null) {
              sendLocked(watermarkMessage(watermark, historyFrom));
            }
            if (!recording.isEmpty()) {
              sendLocked(recordingMessage(recording));
            }
            if (finishedEnd != null) {
              // A new stream is a live app to the control plane until it hears Finished again.
              sendLocked(finishedMessage(finishedEnd));
            }
          }
          log(connectionLog.registered());
          if (source.states().stream().anyMatch(s -> s.consistency() == Consistency.EXACT)) {
            warmUpWriter(); // exported states: versions of them will be asked for
          }
        }
        case DRAINED -> {
          synchronized (lock) {
            if (generation == streamGeneration && drainedLatch != null) {
              drained = true;
              drainedLatch.countDown();
            }
          }
        }
        case STATES_READ -> {
          synchronized (lock) {
            if (generation != streamGeneration) {
              return;
            }
          }
          if (message.getStatesRead().getStatesCount() > 0) {
            warmUpWriter(); // a TSS reads states: its versions follow
          }
          try {
            source.statesRead(Set.copyOf(message.getStatesRead().getStatesList()));
          } catch (RuntimeException e) {
            LOG.warn(
                "agent {}: the app failed to take the states read by TSS: {}", app, e.toString());
          }
        }
        case CANCELLED -> cancellations.merge(message.getCancelled().getTss(), 1L, Long::sum);
        case ASSIGNMENT -> {
          ExtractionAssignment assignment = message.getAssignment();
          long cancelledBefore = cancellations.getOrDefault(assignment.getTss(), 0L);
          try {
            extractor.execute(() -> extract(generation, assignment, cancelledBefore));
          } catch (RejectedExecutionException e) {
            LOG.debug("agent {} is closed; assignment {} dropped", app, assignment.getTss());
          }
        }
        default -> LOG.warn("agent {} ignores an empty control message", app);
      }
    }

    @Override
    public void onError(Throwable t) {
      streamEnded(generation, Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      streamEnded(
          generation, Status.UNAVAILABLE.withDescription("control plane closed the stream"));
    }
  }

  private void streamEnded(long generation, Status status) {
    Duration delay;
    Path lostHome = null;
    synchronized (lock) {
      if (generation != streamGeneration || closed) {
        return;
      }
      registered = false;
      requests = null;
      if (registeredLatch.getCount() == 0) {
        registeredLatch = new CountDownLatch(1);
      }
      lastError = status.getCode() + ": " + status.getDescription();
      if (status.getCode() == Status.Code.UNAVAILABLE
          && !embeddedHome.isEmpty()
          && embeddedLost != null) {
        lostHome = Path.of(embeddedHome);
      }
      if (status.getCode() == Status.Code.ALREADY_EXISTS) {
        // Another app of this name runs; it may run for days, so ask rarely.
        delay = maxBackoff;
      } else {
        delay = backoff;
        Duration doubled = backoff.multipliedBy(2);
        backoff = doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
      }
    }
    log(connectionLog.streamEnded(status, delay));
    Path home = lostHome;
    Runnable reconnect =
        home == null
            ? this::connect
            : () -> {
              try {
                embeddedLost.accept(home);
              } catch (RuntimeException e) {
                LOG.debug("agent {}: taking over the control plane failed: {}", app, e.toString());
              }
              connect();
            };
    try {
      connector.schedule(reconnect, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      LOG.debug("agent {} is closed; not reconnecting", app);
    }
  }

  private static void log(ConnectionLog.Entry entry) {
    LOG.atLevel(entry.level()).log(entry.message());
  }

  // ------------------------------------------------------------------ extraction

  /**
   * @param cancelledBefore how often the assignment's TSS had been cancelled when it arrived: a
   *     cancellation since (the TSS was dropped) skips what is left of it
   */
  private void extract(long generation, ExtractionAssignment assignment, long cancelledBefore) {
    Instant version = ProtoTime.toInstant(assignment.getVersion());
    VersionSealed.Builder sealed =
        VersionSealed.newBuilder().setTss(assignment.getTss()).setVersion(assignment.getVersion());
    try {
      Map<String, StateDescriptor> byName = new HashMap<>();
      for (StateDescriptor d : source.states()) {
        byName.put(d.name(), d);
      }
      for (String stateName : assignment.getStatesList()) {
        if (cancellations.getOrDefault(assignment.getTss(), 0L) != cancelledBefore) {
          throw new CancellationException(
              "TSS " + assignment.getTss() + " was dropped; its version is not extracted");
        }
        StateDescriptor state = byName.get(stateName);
        if (state == null) {
          throw new IllegalStateException(
              "app " + app + " no longer has state " + stateName + " (it was registered before)");
        }
        Object keyFilter =
            assignment.hasKeyFilter()
                ? KeyLiterals.parse(state.schema().keyType(), assignment.getKeyFilter())
                : null;
        Iterable<StateRow> rows = source.rows(stateName, version, keyFilter);
        String file = LakeLayout.stateFileIn(assignment.getTargetDirectory(), stateName);
        PartFile written;
        try {
          written =
              writer.writeVersion(
                  file,
                  state.schema(),
                  checked(
                      rows,
                      stateName,
                      version,
                      keyFilter,
                      state.consistency() == Consistency.EXACT),
                  version,
                  OutputMetadata.ofState(app, stateName, version, state.consistency()));
        } finally {
          // A write that failed midway left the read unfinished: let the source release it.
          if (rows instanceof AutoCloseable closeable) {
            closeable.close();
          }
        }
        sealed.addFiles(
            WrittenFile.newBuilder()
                .setState(stateName)
                .setPath(written.path())
                .setRows(written.rowCount()));
      }
    } catch (CancellationException e) {
      LOG.info("agent {}: {}@{} skipped: {}", app, assignment.getTss(), version, e.getMessage());
      sendFailed(generation, assignment, e.getMessage());
      return;
    } catch (Exception e) {
      if (cancellations.getOrDefault(assignment.getTss(), 0L) != cancelledBefore) {
        // Dropped meanwhile (a bounded app may then stop under the read): nothing waits for it.
        LOG.info(
            "agent {}: extraction of {}@{} ended after its TSS was dropped: {}",
            app,
            assignment.getTss(),
            version,
            e.toString());
      } else {
        LOG.warn("agent {}: extraction of {}@{} failed", app, assignment.getTss(), version, e);
      }
      sendFailed(generation, assignment, e.getMessage() == null ? e.toString() : e.getMessage());
      return;
    }
    send(generation, AppMessage.newBuilder().setSealed(sealed).build());
  }

  private void sendFailed(long generation, ExtractionAssignment assignment, String reason) {
    send(
        generation,
        AppMessage.newBuilder()
            .setFailed(
                VersionFailed.newBuilder()
                    .setTss(assignment.getTss())
                    .setVersion(assignment.getVersion())
                    .setReason(reason))
            .build());
  }

  /**
   * Applies the key filter (a source may ignore it) and, for an EXACT state, refuses rows updated
   * at or after the version time: such a row means the source answered with state from the
   * version's future. A WATERMARK_CUT state may hold such rows (inputs processed before the
   * watermark passed T); DESCRIBE APP labels its consistency.
   */
  private static Iterable<StateRow> checked(
      Iterable<StateRow> rows, String state, Instant version, Object keyFilter, boolean exact) {
    return () ->
        new Iterator<>() {
          private final Iterator<StateRow> it = rows.iterator();
          private StateRow next;

          @Override
          public boolean hasNext() {
            while (next == null && it.hasNext()) {
              StateRow row = it.next();
              if (keyFilter != null && !KeyLiterals.matches(keyFilter, row.key())) {
                continue;
              }
              if (exact && !row.updatedAt().isBefore(version)) {
                throw new IllegalStateException(
                    "state "
                        + state
                        + " returned key "
                        + row.key()
                        + " updated at "
                        + row.updatedAt()
                        + ", not before the version time "
                        + version
                        + "; a version holds only updates with event time < T");
              }
              next = row;
            }
            return next != null;
          }

          @Override
          public StateRow next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            StateRow row = next;
            next = null;
            return row;
          }
        };
  }

  @Override
  public void close() {
    StreamObserver<AppMessage> stream;
    synchronized (lock) {
      closed = true;
      registered = false;
      stream = requests;
      requests = null;
      if (drainedLatch != null) {
        drainedLatch.countDown(); // a finish() still waiting returns false now
      }
    }
    connector.shutdownNow();
    extractor.shutdownNow();
    if (stream != null) {
      try {
        stream.onCompleted();
      } catch (RuntimeException e) {
        LOG.debug("agent {}: stream already closed: {}", app, e.toString());
      }
    }
    channel.shutdown();
    try {
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
      extractor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Once per JVM, loads and compiles the Parquet write path on the extraction thread ({@link
   * ParquetWarmUp}), so that the first version is written at the speed of the next ones.
   */
  private void warmUpWriter() {
    if (!ParquetWarmUp.claim()) {
      return;
    }
    List<StateSchema> schemas = source.states().stream().map(StateDescriptor::schema).toList();
    try {
      extractor.execute(
          () -> {
            long start = System.nanoTime();
            try {
              int files = ParquetWarmUp.run(writer, schemas);
              LOG.debug(
                  "agent {}: Parquet writer warmed up ({} files) in {} ms",
                  app,
                  files,
                  (System.nanoTime() - start) / 1_000_000);
            } catch (RuntimeException e) {
              // Only the first version's speed depends on it.
              LOG.debug("agent {}: Parquet warm-up failed: {}", app, e.toString());
            }
          });
    } catch (RejectedExecutionException e) {
      LOG.debug("agent {} is closed; no Parquet warm-up", app);
    }
  }

  private static ScheduledExecutorService daemonExecutor(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  /** For callers that want the catalog the agent registers. */
  public List<StateDescriptor> states() {
    return source.states();
  }
}
