package io.arcon.runtime.job;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tracks the node instances of one job: completes when all finished, fails on the first error, and
 * can be cancelled. Thread-safe: node actors call it from dispatcher threads.
 */
public final class JobMonitor {
  /** Terminal outcome of a job. */
  public enum Outcome {
    DONE,
    FAILED,
    CANCELLED
  }

  private final AtomicInteger running;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
  private Runnable onTerminate;
  private volatile Runnable cancelRequest;
  private boolean terminated;

  /** Wall-clock time the outcome was decided; 0 while the job runs. */
  private volatile long endedAtMillis;

  public JobMonitor(int nodeInstances) {
    this.running = new AtomicInteger(nodeInstances);
    if (nodeInstances == 0) {
      outcome.complete(Outcome.DONE);
      terminated = true;
      endedAtMillis = System.currentTimeMillis();
    }
  }

  /**
   * Installs what to do once the job ends. Runs it at once if the job already ended (a node can
   * fail while later nodes are still being created; the cleanup must wait until then).
   */
  void onTerminate(Runnable action) {
    boolean runNow;
    synchronized (this) {
      onTerminate = action;
      runNow = terminated;
    }
    if (runNow) {
      action.run();
    }
  }

  private void terminate() {
    endedAtMillis = System.currentTimeMillis();
    Runnable action;
    synchronized (this) {
      terminated = true;
      action = onTerminate;
    }
    if (action != null) {
      action.run();
    }
  }

  public void nodeFinished() {
    if (running.decrementAndGet() == 0 && outcome.complete(Outcome.DONE)) {
      terminate();
    }
  }

  public void nodeFailed(Throwable cause) {
    failure.compareAndSet(null, cause);
    if (outcome.complete(Outcome.FAILED)) {
      terminate();
    }
  }

  /**
   * Cancels the job. With a {@linkplain #onCancelRequest cancel request handler} the outcome is
   * reported only once the handler says the job stopped ({@link #cancelled}); without one at once.
   */
  public void cancel() {
    Runnable request = cancelRequest;
    if (request != null && !outcome.isDone()) {
      request.run();
      return;
    }
    cancelled();
  }

  /** Reports the job cancelled: its nodes have stopped. */
  void cancelled() {
    if (outcome.complete(Outcome.CANCELLED)) {
      terminate();
    }
  }

  /**
   * Makes {@link #cancel} call {@code request} instead of ending the job, for a job that must stop
   * its nodes first (a job of attempts: CANCELLED means nothing runs any more).
   */
  void onCancelRequest(Runnable request) {
    this.cancelRequest = request;
  }

  private volatile CompletableFuture<?> shutdown = CompletableFuture.completedFuture(null);

  void setShutdown(CompletableFuture<?> shutdown) {
    this.shutdown = shutdown;
  }

  /**
   * Waits (bounded) until the runtime's threads are gone after the job ended, so that a caller that
   * exits or unloads classes right after the job does not pull the rug from under them.
   */
  public void awaitShutdown(long timeoutMillis) {
    try {
      shutdown.get(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // Shutdown is best effort; the job's outcome is already decided.
    }
  }

  public boolean isTerminated() {
    return outcome.isDone();
  }

  public CompletableFuture<Outcome> outcome() {
    return outcome;
  }

  /** When the job's outcome was decided (epoch milliseconds), or 0 while it runs. */
  public long endedAtMillis() {
    return endedAtMillis;
  }

  /** The first failure, or null. */
  public Throwable failure() {
    return failure.get();
  }
}
