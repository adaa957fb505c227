package io.arcon.tss.server;

import com.google.protobuf.util.Durations;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.CreateTss;
import io.arcon.tss.lang.DescribeApp;
import io.arcon.tss.lang.DescribeTss;
import io.arcon.tss.lang.DropTss;
import io.arcon.tss.lang.ShowApps;
import io.arcon.tss.lang.ShowTss;
import io.arcon.tss.lang.StateRef;
import io.arcon.tss.lang.Statement;
import io.arcon.tss.lang.TssParser;
import io.arcon.tss.lang.TssSyntaxException;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.KeyLiterals;
import io.arcon.tss.model.Names;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.AppVersionState;
import io.arcon.tss.proto.ControlMessage;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.proto.Register;
import io.arcon.tss.proto.Registered;
import io.arcon.tss.proto.ResultRow;
import io.arcon.tss.proto.ResultTable;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.proto.TssCatalogEntry;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.proto.VersionFailed;
import io.arcon.tss.proto.VersionRecord;
import io.arcon.tss.proto.VersionSealed;
import io.arcon.tss.proto.VersionStatus;
import io.arcon.tss.proto.WrittenFile;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.wire.TypeSpecs;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's state machine: registered apps and their watermarks, TSS definitions and
 * their version catalog. Every mutation happens under one lock and is persisted before the call
 * returns; file work that can take long (DIFF, TRANSFORM, commit markers, DROP) runs on a single
 * committer thread so that versions of a TSS commit strictly in time order.
 *
 * <p>Version lifecycle: a version time T is added to the catalog (PENDING) once the previous
 * version was passed by some app's watermark, so the catalog always shows the next upcoming
 * version. When an app's watermark is past T (&gt; T) it gets an assignment for its states of the
 * TSS; when every app of the TSS sealed T, the committer finishes the files and writes {@code
 * _COMMITTED} last. A failed extraction marks the version FAILED with the app's reason; later
 * versions go on.
 */
final class ControlPlane implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

  /**
   * Upper bound of PENDING versions per TSS: a watermark jumping to the end of time must not
   * materialize an unbounded schedule at once; more are added as earlier ones commit.
   */
  static final int MAX_PENDING_VERSIONS = 1000;

  private final CatalogStore store;
  private final LakeLayout lake;
  private final VersionCommitter committer;
  private final ExecutorService commitThread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "tss-committer");
            t.setDaemon(true);
            return t;
          });

  private final Map<String, AppState> apps = new TreeMap<>();
  private final Map<String, TssState> tsss = new TreeMap<>();

  private static final class AppState {
    AppInfo info;
    Instant watermark;
    AppSession session;

    AppState(AppInfo info) {
      this.info = info;
    }

    StateInfo state(String name) {
      for (StateInfo s : info.getStatesList()) {
        if (s.getName().equals(name)) {
          return s;
        }
      }
      return null;
    }
  }

  private static final class TssState {
    final TssDefinition definition;
    final VersionSchedule schedule;
    final TreeMap<Instant, VersionRecord> versions = new TreeMap<>();

    /** The PENDING versions: what scheduling looks at, so its cost does not grow with history. */
    final TreeSet<Instant> open = new TreeSet<>();

    final Set<Instant> committing = new HashSet<>();

    /** app -> its states in this TSS, in EXTRACT order. */
    final Map<String, List<String>> statesByApp = new LinkedHashMap<>();

    TssState(TssDefinition definition) {
      this.definition = definition;
      this.schedule = new VersionSchedule(definition);
      for (TssDefinition.StateRef ref : definition.getStatesList()) {
        statesByApp.computeIfAbsent(ref.getApp(), a -> new ArrayList<>()).add(ref.getState());
      }
    }

    String name() {
      return definition.getName();
    }
  }

  ControlPlane(CatalogStore store, LakeLayout lake, VersionCommitter committer) {
    this.store = store;
    this.lake = lake;
    this.committer = committer;
    synchronized (this) {
      for (AppInfo app : store.loadApps()) {
        apps.put(
            app.getSummary().getName(),
            new AppState(
                app.toBuilder()
                    .setSummary(app.getSummary().toBuilder().setConnected(false).clearWatermark())
                    .build()));
      }
      for (TssCatalogEntry entry : store.loadTss()) {
        TssState tss = new TssState(entry.getDefinition());
        for (VersionRecord v : entry.getVersionsList()) {
          tss.versions.put(ProtoTime.toInstant(v.getVersion()), v);
        }
        // The log of final versions wins over a PENDING copy left by a crash in between.
        for (VersionRecord v : store.loadFinalVersions(tss.name())) {
          tss.versions.put(ProtoTime.toInstant(v.getVersion()), v);
        }
        tss.versions.forEach(
            (time, v) -> {
              if (v.getStatus() == VersionStatus.PENDING) {
                tss.open.add(time);
              }
            });
        tsss.put(tss.name(), tss);
        ensureVersions(tss);
        // A crash between "all sealed" and "_COMMITTED" leaves a sealed PENDING version: redo it.
        scheduleCommits(tss);
      }
    }
  }

  // ---------------------------------------------------------------- app side

  synchronized void register(AppSession session, Register register) {
    String app =
        ControlPlaneException.asInvalid(() -> Names.requireValid(register.getApp(), "app"));
    Set<String> names = new HashSet<>();
    for (StateInfo s : register.getStatesList()) {
      ControlPlaneException.asInvalid(() -> Names.requireValidState(s.getName()));
      if (!names.add(s.getName())) {
        throw ControlPlaneException.invalid(
            "app " + app + " registers state '" + s.getName() + "' twice; state names are unique");
      }
      try {
        TypeSpecs.fromProto(s.getKeyType());
        TypeSpecs.fromProto(s.getValueType());
      } catch (IllegalArgumentException e) {
        throw ControlPlaneException.invalid(
            "state " + app + "." + s.getName() + " has a bad schema: " + e.getMessage());
      }
    }
    AppState state = apps.get(app);
    AppInfo info =
        AppInfo.newBuilder()
            .setSummary(
                AppSummary.newBuilder()
                    .setName(app)
                    .setConnected(true)
                    .setStateCount(register.getStatesCount()))
            .addAllStates(register.getStatesList())
            .build();
    if (state == null) {
      state = new AppState(info);
      apps.put(app, state);
    } else {
      state.info = info;
      if (state.session != null && state.session != session) {
        // The app reconnected (e.g. after a network drop the old stream has not timed out yet).
        state.session.fail(
            Status.ABORTED.withDescription("app " + app + " registered again on a new stream"));
      }
    }
    state.session = session;
    session.bind(app);
    store.saveApp(persistedForm(state));
    session.send(
        ControlMessage.newBuilder()
            .setRegistered(
                Registered.newBuilder().setApp(app).setServerTime(ProtoTime.toProto(Instant.now())))
            .build());
    LOG.info("app {} registered with {} states", app, register.getStatesCount());
    dispatchAll();
  }

  synchronized void watermark(AppSession session, Instant watermark) {
    AppState app = requireSession(session);
    app.watermark = watermark;
    for (TssState tss : tsss.values()) {
      if (tss.statesByApp.containsKey(app.info.getSummary().getName())) {
        ensureVersions(tss);
      }
    }
    dispatchAll();
  }

  synchronized void sealed(AppSession session, VersionSealed sealed) {
    AppState app = requireSession(session);
    String appName = app.info.getSummary().getName();
    TssState tss = tsss.get(sealed.getTss());
    Instant version = ProtoTime.toInstant(sealed.getVersion());
    if (tss == null || !tss.versions.containsKey(version)) {
      // A TSS dropped while the app was extracting; nothing waits for these files.
      LOG.info("ignoring sealed {}@{} from {}: no such version", sealed.getTss(), version, appName);
      return;
    }
    VersionRecord record = tss.versions.get(version);
    if (record.getStatus() != VersionStatus.PENDING || isSealed(record, appName)) {
      return; // A re-sent assignment sealed again: idempotent.
    }
    List<String> expected = tss.statesByApp.get(appName);
    if (expected == null) {
      return;
    }
    Set<String> written =
        sealed.getFilesList().stream().map(WrittenFile::getState).collect(Collectors.toSet());
    if (!written.containsAll(expected)) {
      Set<String> missing = new LinkedHashSet<>(expected);
      missing.removeAll(written);
      markFailed(tss, version, appName, "sealed without writing states " + missing);
      return;
    }
    VersionRecord.Builder updated = record.toBuilder().clearApps();
    for (AppVersionState a : record.getAppsList()) {
      if (a.getApp().equals(appName)) {
        updated.addApps(
            a.toBuilder().setSealed(true).clearFiles().addAllFiles(sealed.getFilesList()));
      } else {
        updated.addApps(a);
      }
    }
    tss.versions.put(version, updated.build());
    persist(tss);
    scheduleCommits(tss);
  }

  synchronized void failed(AppSession session, VersionFailed failed) {
    AppState app = requireSession(session);
    TssState tss = tsss.get(failed.getTss());
    Instant version = ProtoTime.toInstant(failed.getVersion());
    if (tss == null || !tss.versions.containsKey(version)) {
      return;
    }
    if (tss.versions.get(version).getStatus() != VersionStatus.PENDING) {
      return;
    }
    markFailed(tss, version, app.info.getSummary().getName(), failed.getReason());
    scheduleCommits(tss);
  }

  synchronized void disconnected(AppSession session) {
    String app = session.app();
    if (app == null) {
      return;
    }
    AppState state = apps.get(app);
    if (state != null && state.session == session) {
      state.session = null;
      LOG.info("app {} disconnected", app);
    }
  }

  private AppState requireSession(AppSession session) {
    String app = session.app();
    AppState state = app == null ? null : apps.get(app);
    if (state == null || state.session != session) {
      throw new ControlPlaneException(
          Status.Code.FAILED_PRECONDITION,
          "send Register first: this stream has no registered app");
    }
    return state;
  }

  // ---------------------------------------------------------------- scheduling

  /** Adds version times up to the next one no app has passed yet (see class comment). */
  private void ensureVersions(TssState tss) {
    boolean changed = false;
    while (tss.open.size() < MAX_PENDING_VERSIONS) {
      Instant next;
      if (tss.versions.isEmpty()) {
        next = tss.schedule.first();
      } else {
        Instant last = tss.versions.lastKey();
        if (!anyAppPassed(tss, last)) {
          break;
        }
        next = tss.schedule.next(last);
      }
      if (next == null) {
        break;
      }
      VersionRecord.Builder record =
          VersionRecord.newBuilder()
              .setVersion(ProtoTime.toProto(next))
              .setStatus(VersionStatus.PENDING);
      for (String app : tss.statesByApp.keySet()) {
        record.addApps(AppVersionState.newBuilder().setApp(app));
      }
      tss.versions.put(next, record.build());
      tss.open.add(next);
      changed = true;
    }
    if (changed) {
      persist(tss);
    }
  }

  private boolean anyAppPassed(TssState tss, Instant version) {
    for (String app : tss.statesByApp.keySet()) {
      AppState state = apps.get(app);
      if (state != null && state.watermark != null && state.watermark.isAfter(version)) {
        return true;
      }
    }
    return false;
  }

  private void dispatchAll() {
    for (TssState tss : tsss.values()) {
      dispatch(tss);
    }
  }

  /** Sends each connected app the assignments its watermark has unlocked and it has not sealed. */
  private void dispatch(TssState tss) {
    for (Instant version : tss.open) {
      VersionRecord record = tss.versions.get(version);
      if (tss.committing.contains(version)) {
        continue;
      }
      for (Map.Entry<String, List<String>> appStates : tss.statesByApp.entrySet()) {
        String appName = appStates.getKey();
        AppState app = apps.get(appName);
        if (app == null
            || app.session == null
            || app.watermark == null
            || !app.watermark.isAfter(version)
            || isSealed(record, appName)) {
          continue;
        }
        if (!app.session.markSent(assignmentKey(tss, version))) {
          continue;
        }
        ExtractionAssignment.Builder assignment =
            ExtractionAssignment.newBuilder()
                .setTss(tss.name())
                .setVersion(ProtoTime.toProto(version))
                .addAllStates(appStates.getValue())
                .setTargetDirectory(lake.appDir(tss.name(), version, appName));
        if (tss.definition.hasKeyLiteral()) {
          assignment.setKeyFilter(tss.definition.getKeyLiteral());
        }
        app.session.send(ControlMessage.newBuilder().setAssignment(assignment).build());
      }
    }
  }

  private static String assignmentKey(TssState tss, Instant version) {
    return tss.name() + "@" + version;
  }

  private static boolean isSealed(VersionRecord record, String app) {
    for (AppVersionState a : record.getAppsList()) {
      if (a.getApp().equals(app)) {
        return a.getSealed();
      }
    }
    return false;
  }

  private void markFailed(TssState tss, Instant version, String app, String reason) {
    VersionRecord record = tss.versions.get(version);
    VersionRecord.Builder updated =
        record.toBuilder().setStatus(VersionStatus.FAILED).setFailure("app " + app + ": " + reason);
    updated.clearApps();
    for (AppVersionState a : record.getAppsList()) {
      updated.addApps(a.getApp().equals(app) ? a.toBuilder().setFailure(reason).build() : a);
    }
    finish(tss, version, updated.build());
    LOG.warn("version {}@{} failed: app {}: {}", tss.name(), version, app, reason);
  }

  /**
   * Submits the earliest PENDING version of a TSS when every app sealed it. Versions commit in time
   * order because a DIFF version is computed against the previous committed one.
   */
  private void scheduleCommits(TssState tss) {
    for (Instant version : tss.open) {
      VersionRecord record = tss.versions.get(version);
      boolean allSealed = record.getAppsList().stream().allMatch(AppVersionState::getSealed);
      if (allSealed && tss.committing.add(version)) {
        Instant diffBase = lastCommittedBefore(tss, version);
        List<AppVersionState> appStates = record.getAppsList();
        TssDefinition definition = tss.definition;
        commitThread.execute(() -> runCommit(definition, version, diffBase, appStates));
      }
      return;
    }
  }

  private static Instant lastCommittedBefore(TssState tss, Instant version) {
    for (Map.Entry<Instant, VersionRecord> e :
        tss.versions.headMap(version, false).descendingMap().entrySet()) {
      if (e.getValue().getStatus() == VersionStatus.COMMITTED) {
        return e.getKey();
      }
    }
    return null;
  }

  private void runCommit(
      TssDefinition definition,
      Instant version,
      Instant diffBase,
      List<AppVersionState> appStates) {
    String failure = null;
    try {
      committer.commit(definition, version, diffBase, appStates);
    } catch (Exception e) {
      LOG.error("commit of {}@{} failed", definition.getName(), version, e);
      failure = "commit failed: " + e;
    }
    synchronized (this) {
      TssState tss = tsss.get(definition.getName());
      if (tss == null || tss.definition != definition) {
        return; // Dropped meanwhile; DROP removes the files after this task.
      }
      tss.committing.remove(version);
      VersionRecord record = tss.versions.get(version);
      VersionRecord.Builder updated = record.toBuilder();
      if (failure == null) {
        updated.setStatus(VersionStatus.COMMITTED).setCommittedAt(ProtoTime.toProto(Instant.now()));
        if (diffBase != null && definition.getDiff()) {
          updated.setDiffBase(ProtoTime.toProto(diffBase));
        }
        LOG.info("committed {}@{}", definition.getName(), version);
      } else {
        updated.setStatus(VersionStatus.FAILED).setFailure(failure);
      }
      finish(tss, version, updated.build());
      ensureVersions(tss);
      scheduleCommits(tss);
      dispatch(tss);
    }
  }

  /** Records a version as COMMITTED or FAILED: log first, then drop it from the open set. */
  private void finish(TssState tss, Instant version, VersionRecord record) {
    store.appendFinalVersion(tss.name(), record);
    tss.versions.put(version, record);
    tss.open.remove(version);
    persist(tss);
    for (String appName : tss.statesByApp.keySet()) {
      AppState app = apps.get(appName);
      if (app != null && app.session != null) {
        app.session.forget(assignmentKey(tss, version));
      }
    }
  }

  private void persist(TssState tss) {
    TssCatalogEntry.Builder entry = TssCatalogEntry.newBuilder().setDefinition(tss.definition);
    for (Instant version : tss.open) {
      entry.addVersions(tss.versions.get(version));
    }
    store.saveTss(entry.build());
  }

  private static AppInfo persistedForm(AppState app) {
    // Connection and watermark are live facts; after a restart the app reports them again.
    return app.info.toBuilder()
        .setSummary(app.info.getSummary().toBuilder().setConnected(false).clearWatermark())
        .build();
  }

  // ---------------------------------------------------------------- client side

  ResultTable execute(String statementText) {
    Statement statement;
    try {
      statement = TssParser.parseOne(statementText);
    } catch (TssSyntaxException e) {
      throw ControlPlaneException.invalid(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw ControlPlaneException.invalid(e.getMessage());
    }
    // Java 17: no pattern switch; Statement is sealed, so this chain covers every statement.
    if (statement instanceof ShowApps) {
      List<List<String>> rows = showAppsTable();
      return appsTable(rows, rows.size() + " apps");
    } else if (statement instanceof DescribeApp d) {
      return describeAppTable(d.app());
    } else if (statement instanceof CreateTss c) {
      return create(c);
    } else if (statement instanceof ShowTss) {
      return showTss();
    } else if (statement instanceof DescribeTss d) {
      return describeTss(d.name());
    } else if (statement instanceof DropTss d) {
      return drop(ControlPlaneException.asInvalid(() -> Names.requireValid(d.name(), "TSS")));
    }
    throw ControlPlaneException.invalid("unsupported statement " + statement);
  }

  ResultTable createFromText(String statementText) {
    Statement statement;
    try {
      statement = TssParser.parseOne(statementText);
    } catch (TssSyntaxException | IllegalArgumentException e) {
      throw ControlPlaneException.invalid(e.getMessage());
    }
    if (!(statement instanceof CreateTss create)) {
      throw ControlPlaneException.invalid(
          "CreateTss takes a CREATE TSS statement; use Execute for other statements");
    }
    return create(create);
  }

  synchronized List<AppSummary> showApps() {
    List<AppSummary> result = new ArrayList<>();
    for (AppState app : apps.values()) {
      result.add(liveSummary(app));
    }
    return result;
  }

  private static AppSummary liveSummary(AppState app) {
    AppSummary.Builder summary =
        app.info.getSummary().toBuilder().setConnected(app.session != null).clearWatermark();
    if (app.watermark != null) {
      summary.setWatermark(ProtoTime.toProto(app.watermark));
    }
    return summary.build();
  }

  synchronized AppInfo describeApp(String name) {
    AppState app = apps.get(name);
    if (app == null) {
      throw ControlPlaneException.notFound(unknownApp(name));
    }
    return app.info.toBuilder().setSummary(liveSummary(app)).build();
  }

  private List<List<String>> showAppsTable() {
    List<List<String>> rows = new ArrayList<>();
    for (AppSummary s : showApps()) {
      rows.add(
          List.of(
              s.getName(),
              s.getConnected() ? "yes" : "no",
              s.hasWatermark() ? ProtoTime.toInstant(s.getWatermark()).toString() : "-",
              Integer.toString(s.getStateCount())));
    }
    return rows;
  }

  private ResultTable appsTable(List<List<String>> rows, String message) {
    return build(List.of("app", "connected", "watermark", "states"), rows, message);
  }

  private ResultTable describeAppTable(String name) {
    AppInfo info = describeApp(name);
    List<List<String>> rows = new ArrayList<>();
    for (StateInfo s : info.getStatesList()) {
      rows.add(
          List.of(
              s.getName(),
              s.getTransform(),
              s.getStateId(),
              s.getKind().name().toLowerCase(),
              TypeSpecs.fromProto(s.getKeyType()).toString(),
              TypeSpecs.fromProto(s.getValueType()).toString(),
              s.getBackend(),
              s.getConsistency().name().toLowerCase()));
    }
    String watermark =
        info.getSummary().hasWatermark()
            ? ProtoTime.toInstant(info.getSummary().getWatermark()).toString()
            : "none yet";
    return build(
        List.of(
            "state",
            "transform",
            "state_id",
            "kind",
            "key_type",
            "value_type",
            "backend",
            "consistency"),
        rows,
        "app "
            + name
            + " ("
            + (info.getSummary().getConnected() ? "connected" : "disconnected")
            + ", watermark "
            + watermark
            + ")");
  }

  ResultTable create(CreateTss create) {
    TssDefinition definition;
    synchronized (this) {
      definition = validate(create);
    }
    // Checked outside the lock: DuckDB binding the SQL takes a while.
    if (create.transformSql() != null) {
      Map<String, StateSchema> tables = new LinkedHashMap<>();
      for (TssDefinition.StateRef ref : definition.getStatesList()) {
        tables.put(
            ref.getApp() + "." + ref.getState(),
            new StateSchema(
                TypeSpecs.fromProto(ref.getKeyType()), TypeSpecs.fromProto(ref.getValueType())));
      }
      try {
        committer.checkTransform(create.transformSql(), tables);
      } catch (IllegalArgumentException e) {
        throw ControlPlaneException.invalid("TRANSFORM is refused: " + e.getMessage());
      }
    }
    synchronized (this) {
      if (tsss.containsKey(definition.getName())) {
        throw new ControlPlaneException(
            Status.Code.ALREADY_EXISTS,
            "TSS "
                + definition.getName()
                + " already exists; DROP TSS it first or pick a new name");
      }
      if (committer.lakeDirInUse(definition.getName())) {
        throw new ControlPlaneException(
            Status.Code.ALREADY_EXISTS,
            lake.tssDir(definition.getName())
                + " already holds files, not from a TSS this control plane knows; move them away"
                + " or pick another name");
      }
      committer.writeDefinition(definition);
      TssState tss = new TssState(definition);
      tsss.put(tss.name(), tss);
      ensureVersions(tss);
      persist(tss);
      dispatch(tss);
      return build(
          List.of(),
          List.of(),
          "TSS "
              + tss.name()
              + " created; first version at "
              + tss.schedule.first()
              + ", files under "
              + lake.tssDir(tss.name()));
    }
  }

  private TssDefinition validate(CreateTss create) {
    String name = ControlPlaneException.asInvalid(() -> Names.requireValid(create.name(), "TSS"));
    if (tsss.containsKey(name)) {
      throw new ControlPlaneException(
          Status.Code.ALREADY_EXISTS,
          "TSS " + name + " already exists; DROP TSS it first or pick a new name");
    }
    TssDefinition.Builder definition =
        TssDefinition.newBuilder()
            .setName(name)
            .setStatement(create.text() == null ? "" : create.text())
            .setAt(ProtoTime.toProto(create.at()))
            .setDiff(create.diff())
            .setCreatedAt(ProtoTime.toProto(Instant.now()));
    if (create.timeZone() != null) {
      definition.setTimeZone(create.timeZone());
    }
    if (create.every() != null) {
      if (create.every().isZero() || create.every().isNegative()) {
        throw ControlPlaneException.invalid("FOR EACH must be a positive period");
      }
      definition.setEvery(
          com.google.protobuf.Duration.newBuilder()
              .setSeconds(create.every().getSeconds())
              .setNanos(create.every().getNano()));
    }
    if (create.until() != null) {
      if (create.until().isBefore(create.at())) {
        throw ControlPlaneException.invalid(
            "UNTIL " + create.until() + " is before AT " + create.at());
      }
      definition.setUntil(ProtoTime.toProto(create.until()));
    }
    if (create.keyLiteral() != null) {
      definition.setKeyLiteral(create.keyLiteral());
    }
    if (create.transformSql() != null) {
      definition.setTransformSql(create.transformSql());
    }
    Set<String> seen = new HashSet<>();
    for (StateRef ref : create.states()) {
      String appName = ControlPlaneException.asInvalid(() -> Names.requireValid(ref.app(), "app"));
      String stateName =
          ControlPlaneException.asInvalid(() -> Names.requireValidState(ref.state()));
      if (!seen.add(appName + "." + stateName)) {
        throw ControlPlaneException.invalid(ref + " is extracted twice; name each state once");
      }
      AppState app = apps.get(appName);
      if (app == null) {
        throw ControlPlaneException.notFound(unknownApp(appName));
      }
      StateInfo state = app.state(stateName);
      if (state == null) {
        String valid =
            app.info.getStatesList().stream()
                .map(StateInfo::getName)
                .collect(Collectors.joining(", "));
        throw ControlPlaneException.notFound(
            "app "
                + appName
                + " has no state '"
                + stateName
                + "'; its states are: "
                + (valid.isEmpty() ? "(none)" : valid));
      }
      if (create.keyLiteral() != null) {
        FieldType keyType = TypeSpecs.fromProto(state.getKeyType());
        try {
          KeyLiterals.parse(keyType, create.keyLiteral());
        } catch (IllegalArgumentException e) {
          throw ControlPlaneException.invalid(
              "ON KEY does not fit state "
                  + ref
                  + " (key type "
                  + keyType
                  + "): "
                  + e.getMessage());
        }
      }
      definition.addStates(
          TssDefinition.StateRef.newBuilder()
              .setApp(appName)
              .setState(stateName)
              .setKeyType(state.getKeyType())
              .setValueType(state.getValueType()));
    }
    return definition.build();
  }

  private String unknownApp(String name) {
    String known = String.join(", ", apps.keySet());
    return "unknown app '"
        + name
        + "'; registered apps: "
        + (known.isEmpty() ? "(none — start a pipeline with TSS enabled)" : known);
  }

  synchronized ResultTable showTss() {
    List<List<String>> rows = new ArrayList<>();
    for (TssState tss : tsss.values()) {
      TssDefinition d = tss.definition;
      long committed =
          tss.versions.values().stream()
              .filter(v -> v.getStatus() == VersionStatus.COMMITTED)
              .count();
      long pending =
          tss.versions.values().stream()
              .filter(v -> v.getStatus() == VersionStatus.PENDING)
              .count();
      rows.add(
          List.of(
              d.getName(),
              d.getStatesList().stream()
                  .map(r -> r.getApp() + "." + r.getState())
                  .collect(Collectors.joining(", ")),
              ProtoTime.toInstant(d.getAt()).toString(),
              d.hasEvery() ? Durations.toString(d.getEvery()) : "-",
              d.hasUntil() ? ProtoTime.toInstant(d.getUntil()).toString() : "-",
              d.getDiff() ? "yes" : "no",
              d.hasTransformSql() ? "yes" : "no",
              Long.toString(committed),
              Long.toString(pending)));
    }
    return build(
        List.of(
            "tss", "states", "at", "every", "until", "diff", "transform", "committed", "pending"),
        rows,
        rows.size() + " TSS");
  }

  synchronized ResultTable describeTss(String name) {
    TssState tss = tsss.get(name);
    if (tss == null) {
      throw ControlPlaneException.notFound(unknownTss(name));
    }
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Instant, VersionRecord> e : tss.versions.entrySet()) {
      Instant version = e.getKey();
      VersionRecord record = e.getValue();
      String status;
      String detail;
      switch (record.getStatus()) {
        case COMMITTED -> {
          status = "committed";
          detail =
              "at "
                  + ProtoTime.toInstant(record.getCommittedAt())
                  + (record.hasDiffBase()
                      ? ", diff against " + ProtoTime.toInstant(record.getDiffBase())
                      : "");
        }
        case FAILED -> {
          status = "failed";
          detail = record.getFailure();
        }
        default -> {
          if (tss.committing.contains(version)) {
            status = "committing";
            detail = "all apps sealed";
          } else {
            status = "waiting";
            detail = waitingDetail(record);
          }
        }
      }
      rows.add(List.of(version.toString(), status, detail, lake.versionDir(name, version)));
    }
    TssDefinition d = tss.definition;
    return build(List.of("version", "status", "detail", "path"), rows, d.getStatement());
  }

  private String waitingDetail(VersionRecord record) {
    List<String> waiting = new ArrayList<>();
    for (AppVersionState a : record.getAppsList()) {
      if (a.getSealed()) {
        continue;
      }
      AppState app = apps.get(a.getApp());
      String why;
      if (app == null) {
        why = "not registered";
      } else {
        String wm = app.watermark == null ? "no watermark yet" : "watermark " + app.watermark;
        why = app.session == null ? "disconnected, " + wm : wm;
      }
      waiting.add(a.getApp() + " (" + why + ")");
    }
    return "waiting on " + String.join(", ", waiting);
  }

  ResultTable drop(String name) {
    TssState tss;
    synchronized (this) {
      tss = tsss.remove(name);
      if (tss == null) {
        throw ControlPlaneException.notFound(unknownTss(name));
      }
      store.deleteTss(name);
    }
    // On the committer thread, after any commit of this TSS still running, so no file reappears.
    Future<?> deletion = commitThread.submit(() -> committer.deleteTss(name));
    try {
      deletion.get(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControlPlaneException(Status.Code.CANCELLED, "interrupted while dropping " + name);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new ControlPlaneException(
          Status.Code.INTERNAL,
          "TSS "
              + name
              + " is dropped but its files under "
              + lake.tssDir(name)
              + " could not be removed: "
              + e.getMessage());
    }
    return build(List.of(), List.of(), "TSS " + name + " dropped; removed " + lake.tssDir(name));
  }

  private String unknownTss(String name) {
    String known = String.join(", ", tsss.keySet());
    return "unknown TSS '" + name + "'; existing: " + (known.isEmpty() ? "(none)" : known);
  }

  private static ResultTable build(List<String> columns, List<List<String>> rows, String message) {
    ResultTable.Builder table = ResultTable.newBuilder().addAllColumns(columns).setMessage(message);
    for (List<String> row : rows) {
      table.addRows(ResultRow.newBuilder().addAllCells(row));
    }
    return table.build();
  }

  @Override
  public void close() {
    commitThread.shutdown();
    try {
      if (!commitThread.awaitTermination(30, TimeUnit.SECONDS)) {
        commitThread.shutdownNow();
      }
    } catch (InterruptedException e) {
      commitThread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      for (AppState app : apps.values()) {
        if (app.session != null) {
          app.session.fail(Status.UNAVAILABLE.withDescription("control plane shutting down"));
          app.session = null;
        }
      }
    }
  }
}
