package io.arcon.runner.tss;

import io.arcon.runner.tss.catalog.StatefulDoFnInfo;
import io.arcon.runner.tss.catalog.UserStateCatalog;
import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.server.EmbeddedControlPlane;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's link to TSS: collects the exported transforms while the pipeline is translated, then
 * registers the pipeline as an app with the control plane (starting an embedded one when none
 * listens), reports the app's watermark (the minimum over every instance of every exported
 * transform) and its end, and serves extractions through {@link PipelineStateSource}.
 *
 * <p>Nothing here may fail or slow the pipeline: the agent connects and retries in the background,
 * the watermark is reported by a timer thread from values the nodes only store, and a bounded run
 * waits for its versions only while the control plane is reachable.
 */
public final class TssLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TssLink.class);

  /** Embedded control planes this JVM started, by endpoint; they live as long as the JVM. */
  private static final Map<String, EmbeddedControlPlane> EMBEDDED = new HashMap<>();

  /** How long a finished bounded pipeline waits for the control plane to take its last versions. */
  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(30);

  private static final long REPORT_PERIOD_MILLIS = 50;

  private final TssSettings settings;
  private final List<StatefulDoFnInfo> transforms = new ArrayList<>();
  private final Map<String, Integer> parallelismByTransform = new LinkedHashMap<>();
  private final Map<String, Coder<? extends BoundedWindow>> windowCoders = new HashMap<>();
  private final Map<String, InstanceExport[]> instances = new ConcurrentHashMap<>();

  /**
   * Per (transform, instance index), what its current instance last told. Keyed by position, not by
   * the instance: an attempt that restarts the job replaces its instances' entries instead of
   * leaving the failed attempt's last watermark in the minimum, and the link (which the job's graph
   * keeps for as long as the web UI shows the ended job) holds no instance and so none of its
   * state.
   */
  private final Map<InstancePosition, Progress> progress = new ConcurrentHashMap<>();

  private final ConcurrentSkipListMap<Long, Integer> versionsInFlight =
      new ConcurrentSkipListMap<>();

  private UserStateCatalog catalog;
  private TssAgent agent;
  private ScheduledExecutorService reporter;
  private int expectedInstances;
  private volatile boolean drained;

  /** Whether the agent's thread said once that it will not take over a lost control plane. */
  private boolean tookOverRefusalLogged;

  /** Whether a failed start of an embedded control plane was logged (at WARN, once). */
  private boolean embeddedStartFailureLogged;

  /** Set by {@link #close}: the job ended, no instance will open or advance any more. */
  private volatile boolean closed;

  /** The transforms some TSS reads, as the control plane last said; null until it said. */
  private volatile Set<String> transformsRead;

  private int endedInstances; // guarded by this
  private long endMillis = Long.MIN_VALUE; // guarded by this
  private long reportedWatermark = Long.MIN_VALUE; // reporter thread only

  public TssLink(TssSettings settings) {
    this.settings = settings;
  }

  public TssSettings settings() {
    return settings;
  }

  /**
   * Records a stateful ParDo of the pipeline (during translation) and returns what its instances
   * export.
   */
  public TransformExport exportOf(
      String transform,
      DoFn<?, ?> fn,
      Coder<?> keyCoder,
      String backend,
      boolean exact,
      int parallelism,
      Coder<? extends BoundedWindow> windowCoder) {
    transforms.add(new StatefulDoFnInfo(transform, fn, keyCoder, backend, exact));
    parallelismByTransform.put(transform, parallelism);
    windowCoders.put(transform, windowCoder);
    return new TransformExport(transform, exact, userStateSpecs(fn), this);
  }

  /** The stateful ParDos recorded so far, with whether each is exported exactly. */
  public List<StatefulDoFnInfo> exportedTransforms() {
    return List.copyOf(transforms);
  }

  private static Map<String, StateSpec<?>> userStateSpecs(DoFn<?, ?> fn) {
    Map<String, StateSpec<?>> specs = new LinkedHashMap<>();
    DoFnSignature signature = DoFnSignatures.getSignature(fn.getClass());
    for (Map.Entry<String, DoFnSignature.StateDeclaration> e :
        signature.stateDeclarations().entrySet()) {
      try {
        java.lang.reflect.Field field = e.getValue().field();
        field.setAccessible(true);
        specs.put(e.getKey(), (StateSpec<?>) field.get(fn));
      } catch (IllegalAccessException | RuntimeException ex) {
        throw new IllegalStateException(
            "Cannot read the StateSpec of @StateId(\"" + e.getKey() + "\") of " + fn.getClass(),
            ex);
      }
    }
    return specs;
  }

  /**
   * After translation: registers the app when it has user state. Returns false (and does nothing)
   * when there is nothing to export.
   */
  public boolean start() {
    catalog = UserStateCatalog.build(transforms);
    if (catalog.states().isEmpty()) {
      drained = true;
      return false;
    }
    parallelismByTransform.forEach(
        (t, p) -> {
          instances.put(t, new InstanceExport[p]);
          expectedInstances += p;
        });
    startEmbeddedControlPlaneIfNeeded();
    TssAgent.Builder builder =
        TssAgent.builder(settings.app(), new PipelineStateSource(this))
            .endpoint(settings.host(), settings.port());
    if (settings.token() != null) {
      builder.token(settings.token());
    }
    builder.onEmbeddedControlPlaneLost(this::takeOverEmbeddedControlPlane);
    agent = builder.start();
    reporter =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tss-watermark-" + settings.app());
              t.setDaemon(true);
              return t;
            });
    reporter.scheduleWithFixedDelay(
        this::reportWatermark, REPORT_PERIOD_MILLIS, REPORT_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    LOG.info(
        "TSS: {} registers as app '{}' with the control plane at {} ({} states)",
        settings.app(),
        settings.app(),
        settings.endpoint(),
        catalog.states().size());
    return true;
  }

  /**
   * The control plane this app registered with ran embedded in another app, which stopped: if it
   * kept its catalog in this app's {@code --tssHome}, start one there as the first app did, so that
   * TSS goes on (with the same catalog and lake) without anyone running {@code tss server}. A
   * control plane with another home is not this app's to replace; nor is a standalone one (the
   * agent does not call this for those).
   */
  private void takeOverEmbeddedControlPlane(Path lostHome) {
    Path home = settings.home().toAbsolutePath().normalize();
    if (!home.equals(lostHome.toAbsolutePath().normalize())) {
      if (!tookOverRefusalLogged) {
        tookOverRefusalLogged = true;
        LOG.info(
            "TSS: the embedded control plane at {} (home {}) is gone; app '{}' waits for it,"
                + " as its --tssHome is {}",
            settings.endpoint(),
            lostHome,
            settings.app(),
            home);
      }
      return;
    }
    startEmbeddedControlPlaneIfNeeded();
  }

  private void startEmbeddedControlPlaneIfNeeded() {
    synchronized (EMBEDDED) {
      if (EMBEDDED.containsKey(settings.endpoint())) {
        return;
      }
      try {
        EmbeddedControlPlane.startIfNoneListening(
                settings.host(), settings.port(), settings.home(), settings.token())
            .ifPresent(
                plane -> {
                  EMBEDDED.put(settings.endpoint(), plane);
                  LOG.info(
                      "TSS: started an embedded control plane at {} (home {}); `bin/tss` reaches"
                          + " it",
                      settings.endpoint(),
                      settings.home());
                });
      } catch (RuntimeException e) {
        // The pipeline runs without TSS rather than failing; the agent keeps retrying (and, for a
        // lost embedded control plane, tries again on each retry: said once).
        if (!embeddedStartFailureLogged) {
          embeddedStartFailureLogged = true;
          LOG.warn(
              "TSS: cannot start an embedded control plane at {}: {}",
              settings.endpoint(),
              e.getMessage());
        } else {
          LOG.debug("TSS: cannot start an embedded control plane: {}", e.getMessage());
        }
      }
    }
  }

  Coder<? extends BoundedWindow> windowCoderOf(String transform) {
    return windowCoders.get(transform);
  }

  UserStateCatalog catalog() {
    return catalog;
  }

  /** The open instances of {@code transform}, by index (null where not open). */
  InstanceExport[] instancesOf(String transform) {
    InstanceExport[] of = instances.get(transform);
    return of == null ? new InstanceExport[0] : of;
  }

  void instanceOpened(InstanceExport instance) {
    InstanceExport[] of = instances.get(instance.transform());
    if (of != null && instance.instance() < of.length) {
      of[instance.instance()] = instance;
    }
    Progress opened = new Progress();
    progress.put(new InstancePosition(instance.transform(), instance.instance()), opened);
    instance.reportsTo(opened);
    Set<String> read = transformsRead;
    if (read != null && read.contains(instance.transform())) {
      // Opened on the node's thread: the instance may start recording right away.
      instance.switchRecording(true);
    }
  }

  /**
   * An instance switched its recording: tells the control plane the watermark-cut states that every
   * instance of their transform records now.
   */
  synchronized void instanceRecording() {
    Set<String> recording = new HashSet<>();
    for (Map.Entry<String, InstanceExport[]> transform : instances.entrySet()) {
      boolean all = transform.getValue().length > 0;
      boolean onDemand = false;
      for (InstanceExport instance : transform.getValue()) {
        all &= instance != null && instance.recording();
        onDemand |= instance != null && instance.recordsOnDemand();
      }
      if (all && onDemand) {
        catalog.ofTransform(transform.getKey()).forEach(state -> recording.add(state.name()));
      }
    }
    if (agent != null) {
      agent.reportRecording(recording);
    }
  }

  /**
   * The control plane says which of the app's states some TSS reads now (canonical names); the
   * instances of watermark-cut transforms record their chains only while one of their states is
   * read. Unknown names are ignored (a catalog of an earlier run of the app).
   */
  void statesRead(Set<String> stateNames) {
    Set<String> read = new HashSet<>();
    for (String name : stateNames) {
      catalog.byName(name).ifPresent(state -> read.add(state.transformFullName()));
    }
    transformsRead = Set.copyOf(read);
    for (Map.Entry<String, InstanceExport[]> transform : instances.entrySet()) {
      boolean isRead = read.contains(transform.getKey());
      for (InstanceExport instance : transform.getValue()) {
        if (instance != null) {
          instance.readByTss(isRead);
        }
      }
    }
    LOG.debug("TSS: app '{}' has states read by a TSS in {}", settings.app(), read);
  }

  void instanceWatermark(InstanceExport instance, long watermark, long historyFrom) {
    Progress p = instance.progress();
    if (p != null) {
      p.historyFrom = historyFrom;
      p.watermark = watermark;
    }
  }

  void instanceEnded(InstanceExport instance, long maxEventTime) {
    boolean all;
    long end;
    synchronized (this) {
      endedInstances++;
      if (maxEventTime != Long.MIN_VALUE) {
        endMillis = Math.max(endMillis, maxEventTime + 1);
      }
      all = endedInstances == expectedInstances;
      end = endMillis;
    }
    Progress p = instance.progress();
    if (p != null) {
      p.watermark = Long.MAX_VALUE;
    }
    if (all) {
      Thread drain = new Thread(() -> drain(end), "tss-drain-" + settings.app());
      drain.setDaemon(true);
      drain.start();
    }
  }

  void instanceClosed(InstanceExport instance) {
    InstanceExport[] of = instances.get(instance.transform());
    if (of != null && instance.instance() < of.length && of[instance.instance()] == instance) {
      of[instance.instance()] = null;
    }
  }

  /** Every exported instance reached the end of its input: wait for the control plane. */
  private void drain(long end) {
    try {
      reportWatermark();
      if (agent != null && end != Long.MIN_VALUE) {
        boolean done = agent.finish(Instant.ofEpochMilli(end), DRAIN_TIMEOUT);
        if (!done) {
          LOG.info(
              "TSS: app '{}' ends without confirmation that its last versions were taken (control"
                  + " plane at {} not reachable or too slow)",
              settings.app(),
              settings.endpoint());
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("TSS: app '{}' could not report its end: {}", settings.app(), e.toString());
    } finally {
      drained = true;
      // Wake every node so it sees it may finish now.
      for (InstanceExport[] of : instances.values()) {
        for (InstanceExport instance : of) {
          if (instance != null) {
            instance.wake();
          }
        }
      }
    }
  }

  boolean drained() {
    return drained;
  }

  /** The oldest version time being read now (pruning keeps it), or {@code Long.MAX_VALUE}. */
  long oldestVersionInFlight() {
    Map.Entry<Long, Integer> first = versionsInFlight.firstEntry();
    return first == null ? Long.MAX_VALUE : first.getKey();
  }

  void readStarts(long versionMillis) {
    versionsInFlight.merge(versionMillis, 1, Integer::sum);
  }

  void readEnds(long versionMillis) {
    versionsInFlight.computeIfPresent(versionMillis, (k, n) -> n == 1 ? null : n - 1);
  }

  /** Where an instance runs: its transform and its index among the transform's instances. */
  private record InstancePosition(String transform, int instance) {}

  /**
   * What one instance last told: written by its node, read by the reporter thread. An instance of a
   * failed attempt keeps writing into its own, which is no longer in the map.
   */
  static final class Progress {
    volatile long watermark = Long.MIN_VALUE;
    volatile long historyFrom = Long.MIN_VALUE;
  }

  /** Reports the app's watermark and history horizon when the slowest instance moved. */
  private void reportWatermark() {
    try {
      if (progress.size() < expectedInstances) {
        return; // not every instance is open yet: the minimum is unknown
      }
      long min = Long.MAX_VALUE;
      long historyFrom = Long.MIN_VALUE;
      for (Progress p : progress.values()) {
        min = Math.min(min, p.watermark);
        historyFrom = Math.max(historyFrom, p.historyFrom);
      }
      // The end of input is reported by finish(), never as a watermark at +infinity.
      if (min == Long.MIN_VALUE || min == Long.MAX_VALUE || min <= reportedWatermark) {
        return;
      }
      reportedWatermark = min;
      agent.reportWatermark(
          Instant.ofEpochMilli(min),
          historyFrom == Long.MIN_VALUE ? null : Instant.ofEpochMilli(historyFrom));
    } catch (RuntimeException e) {
      LOG.debug("TSS: watermark report failed: {}", e.toString());
    }
  }

  /** Whether the job ended (however it ended): its instances will not open or advance again. */
  boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    if (reporter != null) {
      reporter.shutdownNow();
    }
    if (agent != null) {
      agent.close();
    }
  }
}
