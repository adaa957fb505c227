package io.arcon.vr;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Makes hangs diagnosable. While a test runs, its name is in {@value #IN_PROGRESS_FILE}; if the
 * fork is killed by Surefire's timeout, {@link VrSummary} finds the file and names the test that
 * hung. A test that runs longer than {@value #STALL_PROPERTY} seconds gets a thread dump in {@code
 * vr-stalls/}, written while it is still running. Active only when {@value #DIR_PROPERTY} is set.
 */
public final class ProgressListener implements TestExecutionListener {

  static final String IN_PROGRESS_FILE = "vr-in-progress.txt";
  static final String STALLS_DIR = "vr-stalls";
  static final String DIR_PROPERTY = "arcon.vr.progressDir";
  static final String STALL_PROPERTY = "arcon.vr.stallSeconds";

  private final Path dir;
  private final long stallSeconds;
  private final ScheduledExecutorService watchdog;
  private ScheduledFuture<?> pendingDump;

  public ProgressListener() {
    String dirName = System.getProperty(DIR_PROPERTY);
    this.dir = dirName == null || dirName.isBlank() ? null : Path.of(dirName);
    this.stallSeconds = Long.getLong(STALL_PROPERTY, 180);
    this.watchdog =
        dir == null
            ? null
            : Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "vr-stall-watchdog");
                  t.setDaemon(true);
                  return t;
                });
  }

  @Override
  public synchronized void executionStarted(TestIdentifier test) {
    if (dir == null || !test.isTest()) {
      return;
    }
    Optional<TestIdentity> identity = TestIdentity.of(test.getSource(), uniqueId(test));
    String name = identity.map(TestIdentity::toString).orElse(test.getUniqueId());
    write(dir.resolve(IN_PROGRESS_FILE), name + "\t" + Instant.now() + "\n");
    pendingDump =
        watchdog.schedule(() -> dumpThreads(name), Math.max(1, stallSeconds), TimeUnit.SECONDS);
  }

  @Override
  public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (dir == null || !test.isTest()) {
      return;
    }
    if (pendingDump != null) {
      pendingDump.cancel(false);
      pendingDump = null;
    }
    try {
      Files.deleteIfExists(dir.resolve(IN_PROGRESS_FILE));
    } catch (IOException e) {
      System.err.println("[vr] cannot delete " + IN_PROGRESS_FILE + ": " + e);
    }
  }

  private static org.junit.platform.engine.UniqueId uniqueId(TestIdentifier test) {
    return org.junit.platform.engine.UniqueId.parse(test.getUniqueId());
  }

  private void dumpThreads(String testName) {
    StringBuilder dump = new StringBuilder();
    dump.append("Test ")
        .append(testName)
        .append(" still running after ")
        .append(stallSeconds)
        .append(" s at ")
        .append(Instant.now())
        .append("\n\n");
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      dump.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
      if (info.getLockName() != null) {
        dump.append(" on ").append(info.getLockName());
      }
      dump.append('\n');
      for (StackTraceElement frame : info.getStackTrace()) {
        dump.append("\tat ").append(frame).append('\n');
      }
      dump.append('\n');
    }
    Path file =
        dir.resolve(STALLS_DIR).resolve(testName.replaceAll("[^A-Za-z0-9_.#$-]", "_") + ".txt");
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      System.err.println("[vr] cannot create " + file.getParent() + ": " + e);
      return;
    }
    write(file, dump.toString());
    System.err.println(
        "[vr] " + testName + " runs longer than " + stallSeconds + " s; threads in " + file);
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      System.err.println("[vr] cannot write " + file + ": " + e);
    }
  }
}
