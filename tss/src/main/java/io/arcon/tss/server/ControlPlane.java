package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.CreateTss;
import io.arcon.tss.lang.DescribeApp;
import io.arcon.tss.lang.DescribeTss;
import io.arcon.tss.lang.DropApp;
import io.arcon.tss.lang.DropTss;
import io.arcon.tss.lang.ShowApps;
import io.arcon.tss.lang.ShowTss;
import io.arcon.tss.lang.Statement;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.lang.TssParser;
import io.arcon.tss.lang.TssSyntaxException;
import io.arcon.tss.model.Names;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane: what apps report and what clients ask, dispatched to the parts that own each
 * job — {@link AppRegistry} and {@link TssCatalog} (the catalog, persisted by {@link
 * CatalogStore}), {@link VersionScheduler} (which versions exist and are due), {@link
 * CommitCoordinator} (commits, on one thread), {@link DefinitionValidator} (CREATE TSS checks) and
 * {@link CatalogTables} (SHOW and DESCRIBE).
 *
 * <p>Every mutation happens under one lock and is persisted before the call returns; file work that
 * can take long (DIFF, TRANSFORM, commit markers, DROP) runs on the single committer thread so that
 * versions of a TSS commit strictly in time order.
 *
 * <p>Version lifecycle: a version time T is added to the catalog (PENDING) once the previous
 * version was passed by some app's watermark, so the catalog always shows the next upcoming
 * version. When an app's watermark is past T (&gt; T) it gets an assignment for its states of the
 * TSS; when every app of the TSS sealed T, the committer finishes the files and writes {@code
 * _COMMITTED} last. A failed extraction marks the version FAILED with the app's reason; later
 * versions go on.
 *
 * <p>Apps: one live stream per app name (a second app of the name is refused until the first
 * leaves). An app reports its history horizon with its watermark (CREATE TSS refuses an older AT)
 * and says when its input ended (Finished): its TSS then stop at their first version at or after
 * the end, and the app is sent Drained once it sealed every version due for it.
 */
final class ControlPlane implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

  /** Guards the catalog: the apps, the TSS and their versions. */
  private final Object lock = new Object();

  private final LakeLayout lake;
  private final VersionCommitter committer;
  private final AppRegistry apps;
  private final TssCatalog tsss;
  private final VersionScheduler scheduler;
  private final CommitCoordinator commits;
  private final DefinitionValidator validator;
  private final DroppedExtractions droppedExtractions = new DroppedExtractions();

  /** The home when this control plane runs embedded in an app's JVM, else empty. */
  private volatile String embeddedHome = "";

  /** Loads the catalog; {@link #resume} then finishes what a restart interrupted. */
  ControlPlane(CatalogStore store, LakeLayout lake, VersionCommitter committer) {
    this.lake = lake;
    this.committer = committer;
    this.apps = new AppRegistry(store);
    this.tsss = new TssCatalog(store, apps);
    this.scheduler = new VersionScheduler(apps, tsss, lake);
    this.commits = new CommitCoordinator(lock, tsss, scheduler, committer, lake);
    this.validator = new DefinitionValidator(apps, tsss, lake, committer, droppedExtractions);
  }

  /**
   * Marks this control plane as embedded in an app's JVM, with {@code home}: registered apps are
   * told, so that one whose home it is can start a new one there when this JVM is gone. Called
   * before the server listens.
   */
  void embeddedIn(java.nio.file.Path home) {
    embeddedHome = home.toString();
  }

  /**
   * Schedules the versions of the loaded catalog and commits those every app had sealed. Separate
   * from the constructor so that a server that fails to listen has written nothing to the lake.
   */
  void resume() {
    synchronized (lock) {
      for (TssState tss : tsss.all()) {
        scheduler.extend(tss);
        // A crash between "all sealed" and "_COMMITTED" leaves a sealed PENDING version: redo it.
        commits.schedule(tss);
      }
    }
  }

  // ---------------------------------------------------------------- app side

  void register(AppSession session, Registration registration) {
    synchronized (lock) {
      apps.register(session, registration);
      session.confirmRegistration(registration.app(), embeddedHome);
      LOG.info(
          "app {} registered with {} states", registration.app(), registration.states().size());
      scheduler.sendStatesRead();
      scheduler.dispatchAll();
    }
  }

  void watermark(AppSession session, Instant watermark) {
    watermark(session, watermark, null);
  }

  /**
   * @param historyFrom the oldest version time the app can still extract, or null for no limit
   */
  void watermark(AppSession session, Instant watermark, Instant historyFrom) {
    synchronized (lock) {
      AppState app = apps.requireSession(session);
      app.reportWatermark(watermark, historyFrom);
      scheduler.extendFor(app.name());
      scheduler.dispatchAll();
    }
  }

  /** The app records the history of these watermark-cut states now (shown by DESCRIBE APP). */
  void recording(AppSession session, Set<String> states) {
    synchronized (lock) {
      apps.requireSession(session).recording(states);
    }
  }

  /**
   * The app's input ended at {@code end}: every version of its TSS up to the first at or after
   * {@code end} becomes due for it, none after; it gets Drained once it sealed them all.
   */
  void finished(AppSession session, Instant end) {
    synchronized (lock) {
      AppState app = apps.requireSession(session);
      apps.finish(app, end);
      LOG.info("app {} finished: its input ended at {}", app.name(), end);
      scheduler.extendFor(app.name());
      scheduler.dispatchAll();
      scheduler.sendDrained();
      scheduler.sendStatesRead();
    }
  }

  void sealed(AppSession session, String tssName, Instant version, List<SealedFile> files) {
    synchronized (lock) {
      String app = apps.requireSession(session).name();
      TssState tss = tsss.get(tssName);
      if (tss == null || tss.version(version) == null) {
        if (!droppedExtractions.reported(tssName, session, version)) {
          LOG.info("ignoring sealed {}@{} from {}: no such version", tssName, version, app);
          return;
        }
        LOG.info(
            "removing {}@{} from {}: the TSS was dropped while it extracted",
            tssName,
            version,
            app);
      } else {
        sealedLocked(tss, app, version, files);
        return;
      }
    }
    removeDroppedFiles(tssName);
  }

  /** Under the lock: {@code app} sealed {@code version} of {@code tss}, a TSS of the catalog. */
  private void sealedLocked(TssState tss, String app, Instant version, List<SealedFile> files) {
    if (!tss.awaitsSeal(app, version)) {
      return; // A re-sent assignment sealed again: idempotent.
    }
    Set<String> missing = tss.missingStates(app, files);
    if (!missing.isEmpty()) {
      tsss.fail(tss, version, app, "sealed without writing states " + missing);
      versionFinished(tss);
      return;
    }
    tss.seal(app, version, files);
    tsss.persist(tss);
    commits.schedule(tss);
    scheduler.sendDrained();
  }

  /**
   * Removes what extractions of the dropped TSS {@code name} wrote after its directory was removed,
   * then frees the name if none is left running.
   */
  private void removeDroppedFiles(String name) {
    try {
      commits.deleteFiles(name);
    } finally {
      synchronized (lock) {
        droppedExtractions.releaseIfDone(name);
      }
    }
  }

  /**
   * A version left the open set without a commit (it failed): the next one may now be the earliest
   * and fully sealed, and the schedule may have room for more.
   */
  private void versionFinished(TssState tss) {
    scheduler.extend(tss);
    commits.schedule(tss);
    scheduler.dispatch(tss);
    scheduler.sendDrained();
    scheduler.sendStatesRead();
  }

  void failed(AppSession session, String tssName, Instant version, String reason) {
    synchronized (lock) {
      String app = apps.requireSession(session).name();
      TssState tss = tsss.get(tssName);
      if (tss != null) {
        if (tss.version(version) != null && tss.version(version).isPending()) {
          // Also while its commit runs: the commit then leaves it FAILED and writes no marker.
          tsss.fail(tss, version, app, reason);
          versionFinished(tss);
        }
        return;
      }
      if (!droppedExtractions.reported(tssName, session, version)) {
        return;
      }
    }
    // A dropped TSS's extraction failed: remove what it may have written before it failed.
    removeDroppedFiles(tssName);
  }

  void disconnected(AppSession session) {
    List<String> dropped;
    synchronized (lock) {
      if (apps.disconnected(session)) {
        LOG.info("app {} disconnected", session.app());
      }
      dropped = droppedExtractions.sessionEnded(session);
    }
    // Its extractions of dropped TSSs will not report: remove what they wrote.
    for (String name : dropped) {
      removeDroppedFiles(name);
    }
  }

  // ---------------------------------------------------------------- client side

  StatementResult execute(String statementText) {
    Statement statement = parse(statementText);
    // Java 17: no pattern switch; Statement is sealed, so this chain covers every statement.
    if (statement instanceof ShowApps) {
      return CatalogTables.showApps(showApps());
    } else if (statement instanceof DescribeApp d) {
      return CatalogTables.describeApp(describeApp(d.app()));
    } else if (statement instanceof CreateTss c) {
      return create(c);
    } else if (statement instanceof ShowTss) {
      return showTss();
    } else if (statement instanceof DescribeTss d) {
      return describeTss(d.name());
    } else if (statement instanceof DropTss d) {
      return drop(ControlPlaneException.asInvalid(() -> Names.requireValid(d.name(), "TSS")));
    } else if (statement instanceof DropApp d) {
      return dropApp(d.app());
    }
    throw ControlPlaneException.invalid("unsupported statement " + statement);
  }

  StatementResult createFromText(String statementText) {
    if (!(parse(statementText) instanceof CreateTss create)) {
      throw ControlPlaneException.invalid(
          "CreateTss takes a CREATE TSS statement; use Execute for other statements");
    }
    return create(create);
  }

  private static Statement parse(String statementText) {
    try {
      return TssParser.parseOne(statementText);
    } catch (TssSyntaxException | IllegalArgumentException e) {
      throw ControlPlaneException.invalid(e.getMessage());
    }
  }

  List<AppState.Snapshot> showApps() {
    synchronized (lock) {
      return apps.snapshots();
    }
  }

  AppState.Snapshot describeApp(String name) {
    synchronized (lock) {
      return apps.require(name).snapshot();
    }
  }

  StatementResult create(CreateTss create) {
    TssSpec spec;
    synchronized (lock) {
      spec = validator.validate(create);
    }
    // Checked outside the lock: DuckDB binding the SQL takes a while.
    validator.checkTransform(spec);
    synchronized (lock) {
      validator.checkNoConflict(spec.name());
      committer.writeDefinition(spec);
      TssState tss = new TssState(spec);
      tsss.add(tss);
      scheduler.extend(tss);
      tsss.persist(tss);
      // Before the first assignment: a watermark-cut state starts its history now.
      scheduler.sendStatesRead();
      scheduler.dispatch(tss);
      return StatementResult.message(
          "TSS "
              + tss.name()
              + " created; first version at "
              + tss.schedule().first()
              + ", files under "
              + lake.tssDir(tss.name()));
    }
  }

  StatementResult showTss() {
    synchronized (lock) {
      return CatalogTables.showTss(tsss.all());
    }
  }

  StatementResult describeTss(String name) {
    synchronized (lock) {
      return CatalogTables.describeTss(tsss.require(name), apps, scheduler, lake);
    }
  }

  StatementResult drop(String name) {
    synchronized (lock) {
      TssState tss = tsss.get(name);
      if (tss == null) {
        throw ControlPlaneException.notFound(tsss.unknownTss(name));
      }
      reserveRunningExtractions(tss);
      tsss.remove(name);
      // A finished app may have waited only for this TSS.
      scheduler.sendDrained();
      scheduler.sendStatesRead();
    }
    String stillWriting;
    try {
      commits.deleteFiles(name);
    } finally {
      synchronized (lock) {
        droppedExtractions.releaseIfDone(name);
        stillWriting = droppedExtractions.reserves(name) ? droppedExtractions.describe(name) : null;
      }
    }
    String message = "TSS " + name + " dropped; removed " + lake.tssDir(name);
    if (stillWriting != null) {
      message +=
          "; still extracting it: "
              + stillWriting
              + ". What they write is removed as they finish; until then the name cannot be"
              + " used for a new TSS";
    }
    return StatementResult.message(message);
  }

  /**
   * Forgets an app that is not running and whose state no TSS extracts (as SQL's DROP refuses an
   * object others depend on): a TSS needs its apps' catalog to schedule, seal and describe its
   * versions. The lake is untouched; a pipeline run under the name registers it again.
   */
  StatementResult dropApp(String name) {
    ControlPlaneException.asInvalid(() -> Names.requireValid(name, "app"));
    synchronized (lock) {
      AppState app = apps.require(name);
      if (app.connected()) {
        throw new ControlPlaneException(
            Status.Code.FAILED_PRECONDITION,
            "app "
                + name
                + " is running (connected since "
                + app.connectedSince()
                + "); stop its pipeline first: DROP APP forgets only apps that are not running");
      }
      List<String> extracting = new ArrayList<>();
      for (TssState tss : tsss.all()) {
        if (tss.statesByApp().containsKey(name)) {
          extracting.add(tss.name());
        }
      }
      if (!extracting.isEmpty()) {
        throw new ControlPlaneException(
            Status.Code.FAILED_PRECONDITION,
            (extracting.size() == 1 ? "TSS " : "TSSs ")
                + String.join(", ", extracting)
                + " extract"
                + (extracting.size() == 1 ? "s" : "")
                + " the state of app "
                + name
                + "; DROP TSS "
                + (extracting.size() == 1 ? "it" : "them")
                + " first (which removes "
                + (extracting.size() == 1 ? "its" : "their")
                + " versions from the lake), or keep the app");
      }
      apps.remove(app);
    }
    return StatementResult.message(
        "app "
            + name
            + " dropped from the catalog; a pipeline run as --jobName="
            + name
            + " registers it again");
  }

  /**
   * Before {@code tss} is dropped: every extraction an app was assigned and has not reported will
   * still write files, which are removed when it reports ({@link DroppedExtractions}).
   */
  private void reserveRunningExtractions(TssState tss) {
    Set<AppSession> cancelled = new LinkedHashSet<>();
    for (Instant time : tss.openTimes()) {
      Version version = tss.version(time);
      for (String appName : tss.statesByApp().keySet()) {
        AppState app = apps.get(appName);
        if (app == null || !app.connected() || version.sealedBy(appName)) {
          continue;
        }
        if (app.session().forget(tss.name(), time)) {
          droppedExtractions.add(tss.name(), app.session(), time);
          cancelled.add(app.session());
        }
      }
    }
    for (AppSession session : cancelled) {
      session.cancel(tss.name());
    }
  }

  @Override
  public void close() {
    commits.close();
    synchronized (lock) {
      apps.disconnectAll(Status.UNAVAILABLE.withDescription("control plane shutting down"));
    }
  }
}
