package io.arcon.runtime.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An executor that runs each recurring task (a Pekko actor's mailbox) on the same thread every
 * time, so that a node's state, timers and buffers stay in one core's caches, but lets an idle
 * thread take a waiting task from a thread that has been running one task for longer than {@code
 * stealAfterNanos}, so that a node that blocks (a DoFn sleeping or waiting on a remote call) does
 * not hold up the nodes that share its thread. When every thread is blocked (sleeping, waiting, or
 * in one task for 50 ms) while tasks wait, a spare thread starts to take them (up to {@link
 * #maxSpares(int)}), and ends after a second with nothing to take.
 *
 * <p>Why not Pekko's affinity pool, which pins the same way: it never moves a task, so a DoFn that
 * slept held up every node on its thread (Beam's {@code
 * testAfterProcessingTimeContinuationTriggerUsingState} then saw no early pane downstream), and its
 * idle threads wake every 250 µs. Why not the fork-join pool: a node moved between threads from
 * message to message, and each move left its working set in the other core's cache (a per-element
 * stateful job ran at about three quarters of its pinned speed on 2 cores).
 *
 * <p>A task's home is its thread from its first {@link #execute}: recurring tasks (mailboxes) in
 * turn over the threads, so that with as many threads as a job's parallelism each thread gets one
 * instance of every vertex in the order the job creates them; any other task by its identity hash.
 * An idle thread parks until a task arrives for it, or, while another thread has tasks waiting,
 * wakes every {@code stealAfterNanos} to see whether that thread is stuck. A watchdog thread does
 * the same while no thread is idle, to start spares.
 */
public final class StickyExecutor extends AbstractExecutorService {
  /**
   * A task that runs this long counts as blocked even while its thread is runnable: a read from a
   * socket is runnable, and so is a long computation, behind which the node's neighbours should not
   * wait either (the spare then shares the cores with it). Counting only threads that used under a
   * quarter of a core as blocked was tried: a 1M-key exported job's first TSS version then took
   * 1.5–1.8 s instead of 1.2 s, its chunk reads waiting behind long watermark tasks.
   */
  private static final long BUSY_AS_BLOCKED_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Wake-ups with nothing to take after which a spare thread ends (about a second). */
  private static final int SPARE_IDLE_ROUNDS = 500;

  private final Worker[] workers;
  private final long stealAfterNanos;
  private final Class<?> recurring;
  private final ThreadFactory threadFactory;
  private final int maxSpares;
  private final List<Worker> spares = new CopyOnWriteArrayList<>();
  private final AtomicInteger spareCount = new AtomicInteger();
  private final AtomicLong steals = new AtomicLong();
  private final AtomicLong sparesStarted = new AtomicLong();
  private final Thread watchdog;

  /** Set while the watchdog parks without a deadline (no task waited behind a busy thread). */
  private volatile boolean watchdogParked;

  /** Homes of recurring tasks; they live as long as the executor (a job's actor system). */
  private final Map<Runnable, Worker> homes = new ConcurrentHashMap<>();

  private final AtomicInteger nextHome = new AtomicInteger();
  private volatile boolean shutdown;

  /**
   * @param threads threads of the pool, at least 1
   * @param stealAfterNanos how long a thread may run one task before an idle thread takes the tasks
   *     waiting for it
   * @param recurring tasks of this class (Pekko's mailbox) keep a home; others are placed by hash
   * @param threadFactory makes the threads (Pekko's, for the dispatcher's names and daemon flag)
   */
  public StickyExecutor(
      int threads, long stealAfterNanos, Class<?> recurring, ThreadFactory threadFactory) {
    if (threads < 1) {
      throw new IllegalArgumentException("a sticky executor needs a thread, got " + threads);
    }
    this.stealAfterNanos = stealAfterNanos;
    this.recurring = recurring;
    this.threadFactory = threadFactory;
    this.maxSpares = maxSpares(threads);
    workers = new Worker[threads];
    for (int i = 0; i < threads; i++) {
      workers[i] = new Worker(false);
    }
    for (Worker w : workers) {
      w.thread = threadFactory.newThread(w);
    }
    watchdog = threadFactory.newThread(this::watch);
    for (Worker w : workers) {
      w.thread.start();
    }
    watchdog.start();
  }

  /**
   * Spare threads at most: enough for the pool to reach the 8 threads of Pekko's default pool,
   * where blocking DoFns used to leave threads to the rest, and at least as many as the pool has.
   */
  static int maxSpares(int threads) {
    return Math.max(threads, 8 - threads);
  }

  @Override
  public void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("the executor is shut down");
    }
    Worker home = homeOf(task);
    home.queue.offer(task);
    if (home.parked) {
      LockSupport.unpark(home.thread);
    }
    if (home.busySince != 0) {
      wakeWatcher(home); // its thread is busy: the task may wait behind a stuck one
    }
  }

  /**
   * Unparks a thread parked without a deadline, or else the watchdog, so that it watches whether
   * {@code busy}, which has tasks waiting, gets stuck.
   */
  private void wakeWatcher(Worker busy) {
    for (Worker w : workers) {
      if (w != busy && w.parkedUntilTask) {
        LockSupport.unpark(w.thread);
        return;
      }
    }
    if (watchdogParked) {
      LockSupport.unpark(watchdog);
    }
  }

  private Worker homeOf(Runnable task) {
    if (workers.length == 1) {
      return workers[0];
    }
    if (recurring != null && recurring.isInstance(task)) {
      Worker home = homes.get(task);
      if (home == null) {
        home =
            homes.computeIfAbsent(
                task, t -> workers[Math.floorMod(nextHome.getAndIncrement(), workers.length)]);
      }
      return home;
    }
    return workers[Math.floorMod(System.identityHashCode(task), workers.length)];
  }

  /** A task waiting for a thread that has run its current task too long, or null. */
  private Runnable stealFor(Worker thief) {
    long now = System.nanoTime();
    for (Worker w : workers) {
      long since = w.busySince;
      if (w != thief && since != 0 && now - since > stealAfterNanos) {
        Runnable task = w.queue.poll();
        if (task != null) {
          steals.incrementAndGet();
          return task;
        }
      }
    }
    return null;
  }

  private boolean othersHaveWaitingTasks(Worker self) {
    for (Worker w : workers) {
      if (w != self && !w.queue.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The watchdog: while tasks wait behind busy threads, checks every {@code stealAfterNanos}
   * whether every thread is stuck (none idle to take them) and starts a spare then.
   */
  private void watch() {
    while (!shutdown) {
      if (!othersHaveWaitingTasks(null)) {
        watchdogParked = true;
        if (!othersHaveWaitingTasks(null) && !shutdown) {
          LockSupport.park(this);
        }
        watchdogParked = false;
        continue;
      }
      LockSupport.parkNanos(this, stealAfterNanos);
      if (everyThreadStuckWithTasksWaiting()) {
        startSpare();
      }
    }
  }

  /**
   * Whether every thread is blocked in a task (sleeping, waiting, or running one task for over
   * {@link #BUSY_AS_BLOCKED_NANOS}) while tasks wait: the cores idle, or one long task holds up the
   * work behind it. A thread in shorter tasks is not blocked: it gets to its queue soon, and a
   * spare would only take a core from it.
   */
  private boolean everyThreadStuckWithTasksWaiting() {
    long now = System.nanoTime();
    boolean waiting = false;
    for (Worker w : workers) {
      long since = w.busySince;
      if (since == 0) {
        return false; // an idle thread takes what waits
      }
      long busy = now - since;
      boolean blocked =
          busy > BUSY_AS_BLOCKED_NANOS
              || (busy > stealAfterNanos && w.thread.getState() != Thread.State.RUNNABLE);
      if (!blocked) {
        return false;
      }
      waiting |= !w.queue.isEmpty();
    }
    for (Worker spare : spares) {
      if (spare.busySince == 0) {
        return false;
      }
    }
    return waiting;
  }

  private void startSpare() {
    if (spareCount.incrementAndGet() > maxSpares) {
      spareCount.decrementAndGet();
      return;
    }
    sparesStarted.incrementAndGet();
    Worker spare = new Worker(true);
    spare.thread = threadFactory.newThread(spare);
    spares.add(spare);
    spare.thread.start();
  }

  /** Spare threads running now. */
  int spares() {
    return spareCount.get();
  }

  /**
   * Interrupts the threads that are running a task now (a node stuck in user code: a DoFn that
   * sleeps or waits), as Flink interrupts a task's thread when it cancels the task. Returns how
   * many it interrupted.
   */
  public int interruptBusyThreads() {
    int interrupted = 0;
    List<Worker> all = new ArrayList<>(List.of(workers));
    all.addAll(spares);
    for (Worker w : all) {
      if (w.busySince != 0 && w.thread != null) {
        w.thread.interrupt();
        interrupted++;
      }
    }
    return interrupted;
  }

  /** How the threads have run so far. */
  public NodeThreadFigures figures() {
    return new NodeThreadFigures(
        workers.length, steals.get(), sparesStarted.get(), spareCount.get());
  }

  private final class Worker implements Runnable {
    final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    final boolean spare;
    Thread thread;

    /** {@link System#nanoTime} when the running task started (never 0 then); 0 when none runs. */
    volatile long busySince;

    /** Set before the thread parks, so that a task arriving then unparks it. */
    volatile boolean parked;

    /** Parked with no deadline: no other thread had tasks waiting. */
    volatile boolean parkedUntilTask;

    Worker(boolean spare) {
      this.spare = spare;
    }

    @Override
    public void run() {
      if (spare) {
        runSpare();
        return;
      }
      while (true) {
        Runnable task = queue.poll();
        if (task == null) {
          task = stealFor(this);
        } else if (!queue.isEmpty()) {
          // Tasks wait behind this one, which may block: make sure an idle thread watches.
          wakeWatcher(this);
        }
        if (task != null) {
          runTask(task);
          continue;
        }
        if (shutdown) {
          return;
        }
        parked = true;
        // Checked again after announcing the park: a task offered before that is seen here, one
        // offered after it finds the flag set and unparks.
        if (!queue.isEmpty() || shutdown) {
          parked = false;
          continue;
        }
        if (othersHaveWaitingTasks(this)) {
          LockSupport.parkNanos(this, stealAfterNanos);
        } else {
          parkedUntilTask = true;
          if (!othersHaveWaitingTasks(this) && queue.isEmpty() && !shutdown) {
            LockSupport.park(this);
          }
          parkedUntilTask = false;
        }
        parked = false;
      }
    }

    /** A spare has no home tasks: it takes what waits behind stuck threads, then ends. */
    private void runSpare() {
      try {
        int idleRounds = 0;
        while (!shutdown && idleRounds < SPARE_IDLE_ROUNDS) {
          Runnable task = stealFor(this);
          if (task != null) {
            idleRounds = 0;
            runTask(task);
          } else {
            idleRounds++;
            LockSupport.parkNanos(this, stealAfterNanos);
          }
        }
      } finally {
        spares.remove(this);
        spareCount.decrementAndGet();
      }
    }

    private void runTask(Runnable task) {
      long start = System.nanoTime();
      busySince = start == 0 ? 1 : start;
      try {
        task.run();
      } catch (Throwable t) {
        Thread.UncaughtExceptionHandler handler =
            Thread.currentThread().getUncaughtExceptionHandler();
        if (handler != null) {
          handler.uncaughtException(Thread.currentThread(), t);
        }
      } finally {
        busySince = 0;
      }
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
    for (Worker w : workers) {
      LockSupport.unpark(w.thread);
    }
    for (Worker w : spares) {
      LockSupport.unpark(w.thread);
    }
    LockSupport.unpark(watchdog);
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> pending = new ArrayList<>();
    for (Worker w : workers) {
      for (Runnable task; (task = w.queue.poll()) != null; ) {
        pending.add(task);
      }
      w.thread.interrupt();
      LockSupport.unpark(w.thread);
    }
    for (Worker w : spares) {
      w.thread.interrupt();
      LockSupport.unpark(w.thread);
    }
    LockSupport.unpark(watchdog);
    return pending;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    if (!shutdown || watchdog.isAlive() || spareCount.get() > 0) {
      return false;
    }
    for (Worker w : workers) {
      if (w.thread.isAlive()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    List<Thread> threads = new ArrayList<>();
    for (Worker w : workers) {
      threads.add(w.thread);
    }
    for (Worker w : spares) {
      threads.add(w.thread);
    }
    threads.add(watchdog);
    for (Thread t : threads) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return isTerminated();
      }
      TimeUnit.NANOSECONDS.timedJoin(t, left);
    }
    return isTerminated();
  }
}
