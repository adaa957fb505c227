package io.arcon.tss.server;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One version of a TSS in the catalog: its time, where it stands, and each app's part in it.
 * Immutable: every change makes a new version record.
 *
 * @param time the version time T
 * @param status PENDING until it commits or fails
 * @param apps each app of the TSS, in the TSS's order
 * @param failure why it failed ("" otherwise)
 * @param committedAt when it committed, or null
 * @param diffBase the previous committed version its DIFF was computed against, or null
 */
record Version(
    Instant time,
    Status status,
    List<AppProgress> apps,
    String failure,
    Instant committedAt,
    Instant diffBase) {

  enum Status {
    PENDING,
    COMMITTED,
    FAILED
  }

  /**
   * An app's part in a version: whether it sealed it and with which files, and why it failed it.
   */
  record AppProgress(String app, boolean sealed, List<SealedFile> files, String failure) {
    AppProgress {
      Objects.requireNonNull(app, "app");
      files = List.copyOf(files);
      failure = failure == null ? "" : failure;
    }
  }

  Version {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(status, "status");
    apps = List.copyOf(apps);
    failure = failure == null ? "" : failure;
  }

  /** A new version waiting for every one of {@code apps}. */
  static Version pending(Instant time, Collection<String> apps) {
    List<AppProgress> progress = new ArrayList<>();
    for (String app : apps) {
      progress.add(new AppProgress(app, false, List.of(), ""));
    }
    return new Version(time, Status.PENDING, progress, "", null, null);
  }

  boolean isPending() {
    return status == Status.PENDING;
  }

  /** Whether {@code app} sealed this version; false for an app that has no part in it. */
  boolean sealedBy(String app) {
    for (AppProgress a : apps) {
      if (a.app().equals(app)) {
        return a.sealed();
      }
    }
    return false;
  }

  boolean allSealed() {
    return apps.stream().allMatch(AppProgress::sealed);
  }

  /** {@code app} sealed this version with {@code files}. */
  Version sealed(String app, List<SealedFile> files) {
    List<AppProgress> progress = new ArrayList<>();
    for (AppProgress a : apps) {
      progress.add(a.app().equals(app) ? new AppProgress(app, true, files, a.failure()) : a);
    }
    return new Version(time, status, progress, failure, committedAt, diffBase);
  }

  /** FAILED because of {@code app}: the reason goes to the app's part, and names the app above. */
  Version failedBy(String app, String reason) {
    List<AppProgress> progress = new ArrayList<>();
    for (AppProgress a : apps) {
      progress.add(a.app().equals(app) ? new AppProgress(app, a.sealed(), a.files(), reason) : a);
    }
    return new Version(
        time, Status.FAILED, progress, "app " + app + ": " + reason, committedAt, diffBase);
  }

  /** FAILED for a reason of the control plane's own (a commit that did not go through). */
  Version failed(String reason) {
    return new Version(time, Status.FAILED, apps, reason, committedAt, diffBase);
  }

  /**
   * @param diffBase the version the DIFF was computed against, or null (first version, no DIFF)
   */
  Version committed(Instant at, Instant diffBase) {
    return new Version(
        time, Status.COMMITTED, apps, failure, at, diffBase != null ? diffBase : this.diffBase);
  }
}
