package io.arcon.runtime.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StickyExecutorTest {
  private static final long STEAL_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  private final AtomicInteger threadCount = new AtomicInteger();
  private final ThreadFactory threads =
      r -> {
        Thread t = new Thread(r, "sticky-test-" + threadCount.getAndIncrement());
        t.setDaemon(true);
        return t;
      };

  private StickyExecutor executor;

  @AfterEach
  void stop() throws InterruptedException {
    if (executor != null) {
      executor.shutdownNow();
      assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }
  }

  /** A recurring task, like a Pekko mailbox: the same object is executed again and again. */
  private static final class Recurring implements Runnable {
    final Set<String> ranOn = ConcurrentHashMap.newKeySet();
    final AtomicInteger runs = new AtomicInteger();
    volatile CountDownLatch hold;

    @Override
    public void run() {
      ranOn.add(Thread.currentThread().getName());
      runs.incrementAndGet();
      CountDownLatch h = hold;
      if (h != null) {
        try {
          h.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static void awaitRuns(Recurring task, int runs) throws InterruptedException {
    awaitUntil(() -> task.runs.get() >= runs, () -> "ran " + task.runs.get() + " of " + runs);
  }

  /** Waits up to 10 s for {@code condition}, failing with {@code failure}'s message. */
  private static void awaitUntil(BooleanSupplier condition, Supplier<String> failure)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, failure);
      Thread.sleep(1);
    }
  }

  @Test
  void aRecurringTaskRunsOnItsHomeThreadAndTasksTakeTheThreadsInTurn() throws Exception {
    // No stealing: on a loaded machine a thread descheduled mid-task for 2 ms would be stolen from.
    executor = new StickyExecutor(2, TimeUnit.HOURS.toNanos(1), Recurring.class, threads);
    Recurring a = new Recurring();
    Recurring b = new Recurring();
    for (int i = 0; i < 2_000; i++) {
      executor.execute(a);
      executor.execute(b);
      if (i % 100 == 0) {
        awaitRuns(a, i + 1); // a mailbox is never queued twice: let it drain now and then
        awaitRuns(b, i + 1);
      }
    }
    awaitRuns(a, 2_000);
    awaitRuns(b, 2_000);
    assertEquals(1, a.ranOn.size(), "a ran on " + a.ranOn);
    assertEquals(1, b.ranOn.size(), "b ran on " + b.ranOn);
    assertNotEquals(a.ranOn, b.ranOn);
  }

  @Test
  void anIdleThreadTakesTheTasksWaitingBehindABlockedOne() throws Exception {
    executor = new StickyExecutor(2, STEAL_AFTER_NANOS, Recurring.class, threads);
    Recurring blocked = new Recurring();
    Recurring other = new Recurring();
    Recurring behind = new Recurring();
    // Homes in turn: blocked and behind share the first thread, other has the second one.
    CountDownLatch release = new CountDownLatch(1);
    blocked.hold = release;
    executor.execute(blocked);
    awaitRuns(blocked, 1);
    executor.execute(other);
    awaitRuns(other, 1);
    executor.execute(behind);
    try {
      awaitRuns(behind, 1); // while blocked still holds its home thread
      assertEquals(other.ranOn, behind.ranOn);
      assertNotEquals(blocked.ranOn, behind.ranOn);
      assertEquals(1, executor.figures().steals());
      assertEquals(0, executor.figures().sparesStarted(), "an idle thread was there to take it");
    } finally {
      release.countDown();
    }
    // Back home once its thread is free again.
    Thread.sleep(50);
    executor.execute(behind);
    awaitRuns(behind, 2);
    assertEquals(2, behind.ranOn.size(), "behind ran on " + behind.ranOn);
    assertTrue(behind.ranOn.containsAll(blocked.ranOn), behind.ranOn + " / " + blocked.ranOn);
  }

  /**
   * Every thread blocked (here the only one) while a task waits: a spare thread takes it, and ends
   * once there is nothing more to take.
   */
  @Test
  void aSpareThreadTakesWhatWaitsWhenEveryThreadIsBlocked() throws Exception {
    executor = new StickyExecutor(1, STEAL_AFTER_NANOS, Recurring.class, threads);
    Recurring blocked = new Recurring();
    Recurring behind = new Recurring();
    CountDownLatch release = new CountDownLatch(1);
    blocked.hold = release;
    executor.execute(blocked);
    awaitRuns(blocked, 1);
    executor.execute(behind);
    try {
      awaitRuns(behind, 1);
      assertNotEquals(blocked.ranOn, behind.ranOn);
      assertEquals(1, executor.spares());
      NodeThreadFigures figures = executor.figures();
      assertEquals(1, figures.threads());
      assertEquals(1, figures.sparesStarted());
      assertEquals(1, figures.sparesRunning());
      assertEquals(1, figures.steals(), "the spare took the waiting task once");
    } finally {
      release.countDown();
    }
    awaitUntil(() -> executor.spares() == 0, () -> "the spare thread did not end");
    assertEquals(0, executor.figures().sparesRunning());
    assertEquals(1, executor.figures().sparesStarted(), "a count of all spares ever started");
  }

  /**
   * Threads that compute (runnable, under 50 ms per task) get no spare, however long they queue.
   */
  @Test
  void busyThreadsGetNoSpare() throws Exception {
    executor = new StickyExecutor(1, STEAL_AFTER_NANOS, Recurring.class, threads);
    Runnable spin =
        () -> {
          long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
          while (System.nanoTime() < end) {
            Thread.onSpinWait();
          }
        };
    for (int i = 0; i < 30; i++) {
      executor.execute(spin);
      assertEquals(0, executor.spares());
    }
    Recurring last = new Recurring();
    executor.execute(last);
    awaitRuns(last, 1);
    assertEquals(0, executor.spares());
  }

  /**
   * A thread waiting in a socket read is runnable to the JVM: after 50 ms in one task it counts as
   * blocked, and a spare takes what waits behind it.
   */
  @Test
  void aThreadWaitingOnASocketIsBlockedAndGetsASpare() throws Exception {
    executor = new StickyExecutor(1, STEAL_AFTER_NANOS, Recurring.class, threads);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      server.setSoTimeout(20_000);
      CountDownLatch accepting = new CountDownLatch(1);
      executor.execute(
          () -> {
            accepting.countDown();
            try {
              server.accept().close();
            } catch (IOException ignored) {
              // closed by the test
            }
          });
      accepting.await();
      Recurring behind = new Recurring();
      executor.execute(behind);
      awaitRuns(behind, 1);
      assertEquals(1, executor.spares());
    }
    awaitUntil(() -> executor.spares() == 0, () -> "the spare thread did not end");
  }

  @Test
  void idleThreadsParkUntilATaskComes() throws Exception {
    executor = new StickyExecutor(2, STEAL_AFTER_NANOS, Recurring.class, threads);
    List<Thread> pool = new CopyOnWriteArrayList<>();
    Recurring probe = new Recurring();
    Runnable note = () -> pool.add(Thread.currentThread());
    executor.execute(note);
    executor.execute(probe);
    awaitRuns(probe, 1);
    Thread.sleep(100);
    for (Thread t : pool) {
      assertEquals(Thread.State.WAITING, t.getState(), t.getName() + " should park untimed");
    }
  }

  @Test
  void afterShutdownNothingIsTakenAndTheThreadsEnd() throws Exception {
    executor = new StickyExecutor(3, STEAL_AFTER_NANOS, Recurring.class, threads);
    Recurring task = new Recurring();
    executor.execute(task);
    awaitRuns(task, 1);
    executor.shutdown();
    assertTrue(executor.isShutdown());
    assertThrows(RejectedExecutionException.class, () -> executor.execute(task));
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    assertTrue(executor.isTerminated());
  }

  @Test
  void aFailingTaskDoesNotEndItsThread() throws Exception {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    ThreadFactory reporting =
        r -> {
          Thread t = threads.newThread(r);
          t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
          return t;
        };
    executor = new StickyExecutor(1, STEAL_AFTER_NANOS, Recurring.class, reporting);
    executor.execute(
        () -> {
          throw new IllegalStateException("boom");
        });
    Recurring after = new Recurring();
    executor.execute(after);
    awaitRuns(after, 1);
    assertEquals(1, uncaught.size());
    assertEquals("boom", uncaught.get(0).getMessage());
  }

  @Test
  void aPoolNeedsAThread() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new StickyExecutor(0, STEAL_AFTER_NANOS, Recurring.class, threads));
  }
}
