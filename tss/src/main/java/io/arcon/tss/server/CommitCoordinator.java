package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import io.grpc.Status;
import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits versions on one thread. A version is submitted once every app of its TSS sealed it,
 * earliest first, so that versions of a TSS commit strictly in time order (a DIFF is computed
 * against the previous committed one). The long file work ({@link VersionCommitter#prepare}: DIFF,
 * TRANSFORM) runs without the control plane's lock; the {@code _COMMITTED} marker, recording the
 * outcome, scheduling the next versions and sending their assignments run under it. A version an
 * app failed while it was being prepared stays FAILED and gets no marker. DROP's file deletion runs
 * on the same thread, after any commit of the TSS still running, so no file reappears.
 *
 * <p>After a restart, a version every app had sealed but that was not committed is still PENDING
 * and sealed in the catalog: {@link #schedule} commits it again (every step can be repeated).
 */
final class CommitCoordinator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommitCoordinator.class);

  private final Object lock;
  private final TssCatalog tsss;
  private final VersionScheduler scheduler;
  private final VersionCommitter committer;
  private final LakeLayout lake;
  private final ExecutorService commitThread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "tss-committer");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param lock the control plane's lock, which guards the catalog
   */
  CommitCoordinator(
      Object lock,
      TssCatalog tsss,
      VersionScheduler scheduler,
      VersionCommitter committer,
      LakeLayout lake) {
    this.lock = lock;
    this.tsss = tsss;
    this.scheduler = scheduler;
    this.committer = committer;
    this.lake = lake;
  }

  /** Under the lock: submits the earliest PENDING version of {@code tss} if every app sealed it. */
  void schedule(TssState tss) {
    Version version = tss.startCommit();
    if (version == null) {
      return;
    }
    Instant diffBase = tss.lastCommittedBefore(version.time());
    commitThread.execute(() -> commit(tss, version, diffBase));
  }

  private void commit(TssState tss, Version version, Instant diffBase) {
    Instant time = version.time();
    String failure = null;
    try {
      committer.prepare(tss.spec(), time, diffBase);
    } catch (Exception e) {
      LOG.error("commit of {}@{} failed", tss.name(), time, e);
      failure = "commit failed: " + e;
    }
    boolean committed = false;
    synchronized (lock) {
      if (tsss.get(tss.name()) != tss) {
        return; // Dropped meanwhile; DROP removes the files after this task.
      }
      tss.endCommit(time);
      Version current = tss.version(time);
      if (!current.isPending()) {
        // An app failed the version while its files were prepared. It stays FAILED: no marker is
        // written, so readers never see it, and its record is final already.
        LOG.info("commit of {}@{} abandoned: {}", tss.name(), time, current.failure());
      } else {
        if (failure == null) {
          try {
            // Under the lock, so that no failure is recorded between this check and the marker.
            committer.markCommitted(tss.spec(), time, version.apps());
            committed = true;
          } catch (RuntimeException e) {
            LOG.error("commit of {}@{} failed", tss.name(), time, e);
            failure = "commit failed: " + e;
          }
        }
        if (committed) {
          tsss.finish(tss, current.committed(Instant.now(), tss.spec().diff() ? diffBase : null));
          LOG.info("committed {}@{}", tss.name(), time);
        } else {
          tsss.finish(tss, current.failed(failure));
        }
      }
      scheduler.extend(tss);
      schedule(tss);
      scheduler.dispatch(tss);
      scheduler.sendDrained();
      scheduler.sendStatesRead();
    }
    if (committed) {
      try {
        // Off the lock; the next commit of this TSS runs after this task on this thread.
        committer.dropOlderFullRows(tss.spec(), time);
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not remove older staged rows of {}: {}", tss.name(), e.toString());
      }
    }
  }

  /**
   * Deletes the lake files of a dropped TSS, on the commit thread after any commit of it still
   * running, so no file reappears; waits for it. Not under the lock: a running commit needs it.
   *
   * @throws ControlPlaneException if the files could not be removed
   */
  void deleteFiles(String tss) {
    Future<?> deletion = commitThread.submit(() -> committer.deleteTss(tss));
    try {
      deletion.get(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControlPlaneException(Status.Code.CANCELLED, "interrupted while dropping " + tss);
    } catch (ExecutionException | TimeoutException e) {
      throw new ControlPlaneException(
          Status.Code.INTERNAL,
          "TSS "
              + tss
              + " is dropped but its files under "
              + lake.tssDir(tss)
              + " could not be removed: "
              + e.getMessage());
    }
  }

  /** Lets a running commit finish (for a while), then stops the thread. */
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
  }
}
