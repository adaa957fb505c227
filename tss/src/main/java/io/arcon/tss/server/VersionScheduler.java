package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which versions of a TSS exist and which are due. Versions are added to the catalog lazily: a
 * version time T is added (PENDING) once some app of the TSS passed the previous version, so the
 * catalog always shows the next upcoming version, with at most {@link #MAX_PENDING_VERSIONS} open.
 * A version is due for an app once the app's watermark is past T (&gt; T): the app then gets an
 * assignment to extract its states of the TSS, once per stream, until it sealed it.
 *
 * <p>A finished app (its input ended at E) has every version due, and a TSS over it stops at its
 * first version time &gt;= E: every later version would repeat the app's final state. Once the app
 * sealed every version due for it, it is sent Drained. Called under the control plane's lock.
 */
final class VersionScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(VersionScheduler.class);

  /**
   * Upper bound of PENDING versions per TSS: a watermark jumping to the end of time must not
   * materialize an unbounded schedule at once; more are added as earlier ones commit.
   */
  static final int MAX_PENDING_VERSIONS = 1000;

  private final AppRegistry apps;
  private final TssCatalog tsss;
  private final LakeLayout lake;

  VersionScheduler(AppRegistry apps, TssCatalog tsss, LakeLayout lake) {
    this.apps = apps;
    this.tsss = tsss;
    this.lake = lake;
  }

  /** Adds version times up to the next one no app has passed yet, and persists them. */
  void extend(TssState tss) {
    boolean changed = false;
    Instant end = scheduleEnd(tss);
    while (tss.openCount() < MAX_PENDING_VERSIONS) {
      Instant last = tss.lastVersionTime();
      Instant next;
      if (last == null) {
        next = tss.schedule().first();
      } else {
        if (end != null && !last.isBefore(end)) {
          break; // The TSS reached the end of a finished app.
        }
        if (!apps.anyPassed(tss.statesByApp().keySet(), last)) {
          break;
        }
        next = tss.schedule().next(last);
      }
      if (next == null) {
        break;
      }
      tss.addPending(next);
      changed = true;
    }
    if (changed) {
      tsss.persist(tss);
    }
  }

  /**
   * The earliest end of the finished apps of {@code tss}, or null if all are live: the TSS has no
   * version after the first one at or after it.
   */
  Instant scheduleEnd(TssState tss) {
    Instant end = null;
    for (String name : tss.statesByApp().keySet()) {
      AppState app = apps.get(name);
      if (app != null && app.finished() && (end == null || app.finishedAt().isBefore(end))) {
        end = app.finishedAt();
      }
    }
    return end;
  }

  /**
   * The last version {@code tss} will have because of its finished apps, or null if it has none or
   * its schedule is unbounded and no app finished.
   */
  Instant lastVersion(TssState tss) {
    Instant end = scheduleEnd(tss);
    if (end == null) {
      return null;
    }
    Instant last = tss.schedule().firstAtOrAfter(end);
    if (last == null) {
      last = tss.schedule().last();
    }
    Instant inCatalog = tss.lastVersionTime();
    // Versions some other app unlocked before this one finished stay in the catalog.
    return inCatalog != null && inCatalog.isAfter(last) ? inCatalog : last;
  }

  /**
   * Whether finished {@code app} sealed every version due for it: each TSS over it has all its
   * versions up to its end in the catalog, and none of them still waits for the app.
   */
  boolean drained(AppState app) {
    for (TssState tss : tsss.all()) {
      if (!tss.involves(app.name())) {
        continue;
      }
      if (!fullyScheduled(tss)) {
        return false;
      }
      for (Instant time : tss.openTimes()) {
        if (!tss.version(time).sealedBy(app.name())) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether every version {@code tss} will have is in the catalog: its schedule ended, or it
   * reached the end of a finished app.
   */
  private boolean fullyScheduled(TssState tss) {
    Instant last = tss.lastVersionTime();
    Instant end = scheduleEnd(tss);
    return last != null
        && ((end != null && !last.isBefore(end)) || tss.schedule().next(last) == null);
  }

  /**
   * The states of {@code app} that some TSS still reads: one with versions to come or open. The app
   * keeps the history of a watermark-cut state only while it is read.
   */
  Set<String> statesRead(String app) {
    Set<String> read = new TreeSet<>();
    for (TssState tss : tsss.all()) {
      List<String> states = tss.statesByApp().get(app);
      if (states != null && (!fullyScheduled(tss) || !tss.openTimes().isEmpty())) {
        read.addAll(states);
      }
    }
    return read;
  }

  /** Tells each connected app which of its states are read, when that changed since it was told. */
  void sendStatesRead() {
    for (AppState app : apps.all()) {
      if (app.connected()) {
        app.session().statesRead(statesRead(app.name()));
      }
    }
  }

  /** Sends Drained to each connected finished app that has sealed everything due for it. */
  void sendDrained() {
    for (AppState app : apps.all()) {
      if (app.finished() && app.connected() && !app.drainedSent() && drained(app)) {
        app.session().drained();
        app.markDrainedSent();
        LOG.info(
            "app {} is drained: every version due up to its end {} is sealed",
            app.name(),
            app.finishedAt());
      }
    }
  }

  /** {@link #extend} for every TSS that {@code app} takes part in: its watermark advanced. */
  void extendFor(String app) {
    for (TssState tss : tsss.all()) {
      if (tss.involves(app)) {
        extend(tss);
      }
    }
  }

  /** {@link #dispatch} for every TSS. */
  void dispatchAll() {
    for (TssState tss : tsss.all()) {
      dispatch(tss);
    }
  }

  /** Sends each connected app the assignments its watermark has unlocked and it has not sealed. */
  void dispatch(TssState tss) {
    for (Instant version : tss.openTimes()) {
      if (tss.isCommitting(version)) {
        continue;
      }
      Version record = tss.version(version);
      for (Map.Entry<String, List<String>> appStates : tss.statesByApp().entrySet()) {
        String appName = appStates.getKey();
        AppState app = apps.get(appName);
        if (app == null || !app.connected() || !app.passed(version) || record.sealedBy(appName)) {
          continue;
        }
        app.session()
            .assign(
                tss.name(),
                version,
                appStates.getValue(),
                lake.appDir(tss.name(), version, appName),
                tss.spec().keyLiteral());
      }
    }
  }
}
