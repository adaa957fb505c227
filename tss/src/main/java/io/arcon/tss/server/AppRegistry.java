package io.arcon.tss.server;

import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The apps the control plane knows, by name: the ones registered now and, from the catalog, the
 * ones that registered before a restart. Guarded by the control plane's lock.
 */
final class AppRegistry {
  private final Map<String, AppState> apps = new TreeMap<>();
  private final CatalogStore store;

  /** Loads the apps of the catalog, all disconnected. */
  AppRegistry(CatalogStore store) {
    this.store = store;
    for (AppState app : store.restoreApps()) {
      apps.put(app.name(), app);
    }
  }

  /**
   * Takes a registration on {@code session}; the app's catalog is saved before this returns.
   *
   * @throws ControlPlaneException ALREADY_EXISTS if another agent's stream of this app is
   *     connected: two pipelines with one name are refused, not kicked off in turns; the first
   *     keeps its session and the second gets in once it left
   */
  AppState register(AppSession session, Registration registration) {
    String name = registration.app();
    AppState existing = apps.get(name);
    if (existing != null && existing.runsElsewhere(session, registration.instance())) {
      throw new ControlPlaneException(
          Status.Code.ALREADY_EXISTS,
          "app "
              + name
              + " is already running (connected since "
              + existing.connectedSince()
              + "); give this pipeline another --jobName or stop the other one");
    }
    AppState app = apps.computeIfAbsent(name, n -> new AppState(n, registration.states()));
    AppSession replaced = app.connect(session, registration.states(), registration.instance());
    if (replaced != null) {
      // The same agent reconnected: its old stream broke on its side and has not timed out here.
      replaced.fail(
          Status.ABORTED.withDescription(
              "app " + name + " registered again on a new stream of the same agent"));
    }
    session.bind(name);
    store.save(app);
    return app;
  }

  /**
   * The app registered on {@code session}.
   *
   * @throws ControlPlaneException FAILED_PRECONDITION if the stream has not registered (or another
   *     stream of the same app replaced it)
   */
  AppState requireSession(AppSession session) {
    String name = session.app();
    AppState app = name == null ? null : apps.get(name);
    if (app == null || !app.isOn(session)) {
      throw new ControlPlaneException(
          Status.Code.FAILED_PRECONDITION,
          "send Register first: this stream has no registered app");
    }
    return app;
  }

  /** The stream ended; true if it was its app's current one. */
  boolean disconnected(AppSession session) {
    String name = session.app();
    AppState app = name == null ? null : apps.get(name);
    return app != null && app.disconnect(session);
  }

  /** The app's input ended at {@code end}; saved in the catalog before this returns. */
  void finish(AppState app, Instant end) {
    app.finish(end);
    store.save(app);
  }

  /** Forgets {@code app} and removes it from the catalog; the caller checked it may go. */
  void remove(AppState app) {
    apps.remove(app.name());
    store.deleteApp(app.name());
  }

  /** Every app, by name. */
  Collection<AppState> all() {
    return apps.values();
  }

  /** The app named {@code name}, or null. */
  AppState get(String name) {
    return apps.get(name);
  }

  /**
   * @throws ControlPlaneException NOT_FOUND, listing the registered apps
   */
  AppState require(String name) {
    AppState app = apps.get(name);
    if (app == null) {
      throw ControlPlaneException.notFound(unknownApp(name));
    }
    return app;
  }

  String unknownApp(String name) {
    String known = String.join(", ", apps.keySet());
    return "unknown app '"
        + name
        + "'; registered apps: "
        + (known.isEmpty() ? "(none — start a pipeline with TSS enabled)" : known);
  }

  /** Whether the watermark of any of {@code names} passed {@code version}. */
  boolean anyPassed(Collection<String> names, Instant version) {
    for (String name : names) {
      AppState app = apps.get(name);
      if (app != null && app.passed(version)) {
        return true;
      }
    }
    return false;
  }

  /** Every app, by name. */
  List<AppState.Snapshot> snapshots() {
    List<AppState.Snapshot> result = new ArrayList<>();
    for (AppState app : apps.values()) {
      result.add(app.snapshot());
    }
    return result;
  }

  /** A version is final: the streams of {@code names} need not remember its assignment. */
  void forgetAssignment(Collection<String> names, String tss, Instant version) {
    for (String name : names) {
      AppState app = apps.get(name);
      if (app != null && app.connected()) {
        app.session().forget(tss, version);
      }
    }
  }

  /** Ends every app's stream with {@code status}. */
  void disconnectAll(Status status) {
    for (AppState app : apps.values()) {
      AppSession session = app.session();
      if (session != null) {
        session.fail(status);
        app.disconnect(session);
      }
    }
  }
}
