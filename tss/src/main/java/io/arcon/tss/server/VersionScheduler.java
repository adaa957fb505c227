package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Which versions of a TSS exist and which are due. Versions are added to the catalog lazily: a
 * version time T is added (PENDING) once some app of the TSS passed the previous version, so the
 * catalog always shows the next upcoming version, with at most {@link #MAX_PENDING_VERSIONS} open.
 * A version is due for an app once the app's watermark is past T (&gt; T): the app then gets an
 * assignment to extract its states of the TSS, once per stream, until it sealed it. Called under
 * the control plane's lock.
 */
final class VersionScheduler {
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
    while (tss.openCount() < MAX_PENDING_VERSIONS) {
      Instant last = tss.lastVersionTime();
      Instant next;
      if (last == null) {
        next = tss.schedule().first();
      } else {
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
