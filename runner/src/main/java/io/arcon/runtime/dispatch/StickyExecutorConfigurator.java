package io.arcon.runtime.dispatch;

import com.typesafe.config.Config;
import java.util.concurrent.ThreadFactory;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;
import org.apache.pekko.dispatch.Mailbox;
import org.apache.pekko.dispatch.MonitorableThreadFactory;

/**
 * Makes a Pekko dispatcher run on a {@link StickyExecutor}: {@code executor =
 * "io.arcon.runtime.dispatch.StickyExecutorConfigurator"} with {@code sticky-executor { threads =
 * N, steal-after = 2ms }} in the dispatcher's settings, and optionally {@code pool-id = "..."},
 * under which {@link NodeThreadPools} then keeps the executor.
 */
public final class StickyExecutorConfigurator extends ExecutorServiceConfigurator {
  private final int threads;
  private final long stealAfterNanos;

  /** Where {@link NodeThreadPools} keeps the executor; null when the settings name none. */
  private final String poolId;

  public StickyExecutorConfigurator(Config config, DispatcherPrerequisites prerequisites) {
    super(config, prerequisites);
    Config settings = config.getConfig("sticky-executor");
    this.threads = settings.getInt("threads");
    this.stealAfterNanos = settings.getDuration("steal-after").toNanos();
    this.poolId = settings.hasPath("pool-id") ? settings.getString("pool-id") : null;
    if (threads < 1) {
      throw new IllegalArgumentException("sticky-executor.threads must be >= 1, got " + threads);
    }
  }

  @Override
  public ExecutorServiceFactory createExecutorServiceFactory(
      String id, ThreadFactory threadFactory) {
    // Named after the dispatcher, as Pekko names the threads of its own executors.
    ThreadFactory named =
        threadFactory instanceof MonitorableThreadFactory monitorable
            ? monitorable.withName(monitorable.name() + "-" + id)
            : threadFactory;
    return () -> {
      StickyExecutor executor = new StickyExecutor(threads, stealAfterNanos, Mailbox.class, named);
      if (poolId != null) {
        NodeThreadPools.built(poolId, executor);
      }
      return executor;
    };
  }
}
