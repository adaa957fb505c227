package io.arcon.tss.server;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A TSS and its versions as the control plane tracks them: every version in the catalog, the open
 * (PENDING) ones, and the ones being committed right now. It holds the rules of a version's life
 * (who still has to seal it, which one commits next, against which one a DIFF is computed); the I/O
 * around them (persisting, sending, committing) is done by the parts of the control plane that own
 * it. Guarded by the control plane's lock.
 */
final class TssState {
  private final TssSpec spec;
  private final VersionSchedule schedule;

  /** App -> its states in this TSS, in EXTRACT order. */
  private final Map<String, List<String>> statesByApp;

  private final TreeMap<Instant, Version> versions = new TreeMap<>();

  /** The PENDING versions: what scheduling looks at, so its cost does not grow with history. */
  private final TreeSet<Instant> open = new TreeSet<>();

  private final Set<Instant> committing = new HashSet<>();

  TssState(TssSpec spec) {
    this.spec = spec;
    this.schedule = VersionSchedule.of(spec);
    this.statesByApp = spec.statesByApp();
  }

  String name() {
    return spec.name();
  }

  TssSpec spec() {
    return spec;
  }

  VersionSchedule schedule() {
    return schedule;
  }

  Map<String, List<String>> statesByApp() {
    return statesByApp;
  }

  boolean involves(String app) {
    return statesByApp.containsKey(app);
  }

  /**
   * Takes a version as read back from the catalog; a later copy of a version replaces the first.
   */
  void restore(Version version) {
    versions.put(version.time(), version);
    if (version.isPending()) {
      open.add(version.time());
    } else {
      open.remove(version.time());
    }
  }

  /** The latest version time in the catalog, or null before the first. */
  Instant lastVersionTime() {
    return versions.isEmpty() ? null : versions.lastKey();
  }

  /** Adds a version time, PENDING for every app of the TSS. */
  void addPending(Instant time) {
    versions.put(time, Version.pending(time, statesByApp.keySet()));
    open.add(time);
  }

  int openCount() {
    return open.size();
  }

  /** The times of the open versions, earliest first. */
  NavigableSet<Instant> openTimes() {
    return Collections.unmodifiableNavigableSet(open);
  }

  /** The open versions, earliest first: what the catalog file holds besides the definition. */
  List<Version> openVersions() {
    List<Version> result = new ArrayList<>();
    for (Instant time : open) {
      result.add(versions.get(time));
    }
    return result;
  }

  /** Every version in the catalog, earliest first. */
  Collection<Version> versions() {
    return Collections.unmodifiableCollection(versions.values());
  }

  /** The version at {@code time}, or null if the catalog has none. */
  Version version(Instant time) {
    return versions.get(time);
  }

  long count(Version.Status status) {
    return versions.values().stream().filter(v -> v.status() == status).count();
  }

  // ---------------------------------------------------------------- sealing

  /**
   * Whether {@code app} takes part in the PENDING version at {@code time} and has not sealed it.
   */
  boolean awaitsSeal(String app, Instant time) {
    Version version = versions.get(time);
    return version != null && version.isPending() && !version.sealedBy(app) && involves(app);
  }

  /** The states of {@code app} in this TSS that {@code files} do not hold, in EXTRACT order. */
  Set<String> missingStates(String app, Collection<SealedFile> files) {
    Set<String> missing = new LinkedHashSet<>(statesByApp.getOrDefault(app, List.of()));
    for (SealedFile file : files) {
      missing.remove(file.state());
    }
    return missing;
  }

  void seal(String app, Instant time, List<SealedFile> files) {
    versions.put(time, versions.get(time).sealed(app, files));
  }

  // ---------------------------------------------------------------- committing

  /**
   * The earliest open version if every app sealed it and it is not being committed yet; from now on
   * it is. Only the earliest: versions commit in time order because a DIFF version is computed
   * against the previous committed one.
   */
  Version startCommit() {
    if (open.isEmpty()) {
      return null;
    }
    Version earliest = versions.get(open.first());
    return earliest.allSealed() && committing.add(earliest.time()) ? earliest : null;
  }

  boolean isCommitting(Instant time) {
    return committing.contains(time);
  }

  void endCommit(Instant time) {
    committing.remove(time);
  }

  /** The last COMMITTED version before {@code time}: the base of its DIFF. Null if none. */
  Instant lastCommittedBefore(Instant time) {
    for (Version v : versions.headMap(time, false).descendingMap().values()) {
      if (v.status() == Version.Status.COMMITTED) {
        return v.time();
      }
    }
    return null;
  }

  /**
   * A version became COMMITTED or FAILED: it replaces its PENDING record and leaves the open set.
   */
  void finish(Version version) {
    versions.put(version.time(), version);
    open.remove(version.time());
  }
}
