package io.arcon.tss.server;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TSS the control plane knows, by name, and the durable record of their versions: every change
 * to a TSS's versions is persisted before the control plane answers. Guarded by the control plane's
 * lock.
 */
final class TssCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(TssCatalog.class);

  private final Map<String, TssState> tsss = new TreeMap<>();
  private final CatalogStore store;
  private final AppRegistry apps;

  /** Loads the TSS of the catalog with their versions. */
  TssCatalog(CatalogStore store, AppRegistry apps) {
    this.store = store;
    this.apps = apps;
    for (TssState tss : store.restoreTss()) {
      tsss.put(tss.name(), tss);
    }
  }

  /** The TSS named {@code name}, or null. */
  TssState get(String name) {
    return tsss.get(name);
  }

  boolean contains(String name) {
    return tsss.containsKey(name);
  }

  /**
   * @throws ControlPlaneException NOT_FOUND, listing the existing TSS
   */
  TssState require(String name) {
    TssState tss = tsss.get(name);
    if (tss == null) {
      throw ControlPlaneException.notFound(unknownTss(name));
    }
    return tss;
  }

  String unknownTss(String name) {
    String known = String.join(", ", tsss.keySet());
    return "unknown TSS '" + name + "'; existing: " + (known.isEmpty() ? "(none)" : known);
  }

  /** Every TSS, by name. */
  Collection<TssState> all() {
    return Collections.unmodifiableCollection(tsss.values());
  }

  /** Adds a new TSS; the caller persists it once its first versions are scheduled. */
  void add(TssState tss) {
    tsss.put(tss.name(), tss);
  }

  /** Removes a TSS and its catalog entry; null if there is no such TSS. */
  TssState remove(String name) {
    TssState tss = tsss.remove(name);
    if (tss != null) {
      store.deleteTss(name);
    }
    return tss;
  }

  /** Saves the definition and the open versions of {@code tss}. */
  void persist(TssState tss) {
    store.save(tss);
  }

  /**
   * Records a version as COMMITTED or FAILED: to the log of final versions first, then it leaves
   * the open set; the apps' streams need not remember its assignment any more.
   */
  void finish(TssState tss, Version version) {
    store.logFinal(tss.name(), version);
    tss.finish(version);
    persist(tss);
    apps.forgetAssignment(tss.statesByApp().keySet(), tss.name(), version.time());
  }

  /** The version at {@code time} failed because of {@code app}. */
  void fail(TssState tss, Instant time, String app, String reason) {
    finish(tss, tss.version(time).failedBy(app, reason));
    LOG.warn("version {}@{} failed: app {}: {}", tss.name(), time, app, reason);
  }
}
