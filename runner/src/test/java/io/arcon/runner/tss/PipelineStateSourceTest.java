package io.arcon.runner.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.KeyDecoder;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.WindowBounds;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipelineStateSource} against two real instances of an exported transform (heap backends,
 * state history on, each node's mailbox a thread of its own), without a pipeline: what a read
 * returns (oracle: the writes the test made), in which order it takes the instances' chunks, and
 * how it fails.
 */
class PipelineStateSourceTest {
  private static final String TRANSFORM = "Count/ParMultiDo(CountFn)";
  private static final int KEYS = 23;
  private static final long VERSION = 10_000;
  private static final List<IntervalWindow> WINDOWS =
      List.of(
          new IntervalWindow(new org.joda.time.Instant(0), new org.joda.time.Instant(5_000)),
          new IntervalWindow(new org.joda.time.Instant(5_000), new org.joda.time.Instant(10_000)),
          new IntervalWindow(new org.joda.time.Instant(5_000), new org.joda.time.Instant(15_000)));

  /** The transform whose state is read: one value state per key and window. */
  static final class CountFn extends DoFn<KV<String, Long>, Void> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> count = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(@StateId("count") ValueState<Long> count) {}
  }

  private static final StateTag<ValueState<Long>> COUNT =
      StateTags.tagForSpec("count", StateSpecs.value(VarLongCoder.of()));

  @TempDir Path tmp;

  private TssLink link;
  private final List<StateBackend> backends = new ArrayList<>();
  private final List<ExecutorService> nodes = new ArrayList<>();
  private InstanceExport[] instances;
  private Mailbox[] mailboxes;

  /** A node's mailbox: tasks run in order on its own thread, counted as they are handed in. */
  private static final class Mailbox implements java.util.concurrent.Executor {
    final ExecutorService thread;
    final AtomicInteger tasks = new AtomicInteger();

    Mailbox(ExecutorService thread) {
      this.thread = thread;
    }

    @Override
    public void execute(Runnable task) {
      tasks.incrementAndGet();
      thread.execute(task);
    }
  }

  /** Expected row of the oracle: the last write before the version of one key and window. */
  private record Expected(String key, IntervalWindow window, long value, long updatedAt) {}

  @AfterEach
  void stop() throws InterruptedException {
    PipelineStateSource.cellsPerChunk = PipelineStateSource.CELLS_PER_CHUNK;
    if (instances != null) {
      for (InstanceExport instance : instances) {
        if (instance != null) {
          instance.close();
        }
      }
    }
    for (ExecutorService node : nodes) {
      node.shutdownNow();
      assertTrue(node.awaitTermination(10, TimeUnit.SECONDS));
    }
    backends.forEach(StateBackend::close);
    if (link != null) {
      link.close();
    }
  }

  /**
   * Two instances holding {@value #KEYS} keys by their key groups, each key in every window of
   * {@link #WINDOWS}: a write before the version (the expected row) and one at the version (which
   * the version must not see). Returns the oracle.
   */
  private Map<String, List<Expected>> twoInstances() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    link =
        new TssLink(
            new TssSettings(
                true,
                "pss_test",
                "127.0.0.1",
                port,
                tmp.resolve("home"),
                null,
                List.of(),
                Duration.ofHours(1)));
    TransformExport export =
        link.exportOf(
            TRANSFORM,
            new CountFn(),
            StringUtf8Coder.of(),
            "heap",
            true,
            2,
            IntervalWindow.getCoder());
    assertTrue(link.start());
    instances = new InstanceExport[2];
    mailboxes = new Mailbox[2];
    List<BackendStateInternals<String>> internals = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      StateBackend backend =
          StateBackends.open(StateBackendConfig.of("heap", tmp.resolve("db-" + i)));
      backends.add(backend);
      BackendStateInternals<String> in = new BackendStateInternals<>(backend, StringUtf8Coder.of());
      internals.add(in);
      ExecutorService node = Executors.newSingleThreadExecutor();
      nodes.add(node);
      mailboxes[i] = new Mailbox(node);
      instances[i] = new InstanceExport(export, in, context(i, mailboxes[i]), () -> 0L);
    }
    Map<String, List<Expected>> oracle = new HashMap<>();
    for (int k = 0; k < KEYS; k++) {
      String key = "key-" + k;
      BackendStateInternals<String> owner =
          internals.get(KeyGroups.instanceForKey(encode(StringUtf8Coder.of(), key), 2));
      owner.setKey(key);
      for (int w = 0; w < WINDOWS.size(); w++) {
        StateNamespace ns = StateNamespaces.window(IntervalWindow.getCoder(), WINDOWS.get(w));
        long before = 1_000 + 100L * k + w;
        owner.setEventTime(new org.joda.time.Instant(before));
        owner.state(ns, COUNT).write(1_000L * k + w);
        owner.setEventTime(new org.joda.time.Instant(VERSION));
        owner.state(ns, COUNT).write(-1L);
        oracle
            .computeIfAbsent(key, x -> new ArrayList<>())
            .add(new Expected(key, WINDOWS.get(w), 1_000L * k + w, before));
      }
    }
    // Both instances applied every input before the version (a read waits until they have).
    for (InstanceExport instance : instances) {
      instance.watermarkAdvanced(VERSION + 1);
    }
    return oracle;
  }

  private static OperatorContext context(int index, Mailbox mailbox) {
    return new OperatorContext() {
      @Override
      public Output output() {
        return (port, element) -> {};
      }

      @Override
      public int instanceIndex() {
        return index;
      }

      @Override
      public int parallelism() {
        return 2;
      }

      @Override
      public Path stateDirectory() {
        return null;
      }

      @Override
      public long currentProcessingTime() {
        return 0;
      }

      @Override
      public long currentInputWatermark() {
        return 0;
      }

      @Override
      public java.util.concurrent.Executor mailbox() {
        return mailbox;
      }
    };
  }

  private String stateName(PipelineStateSource source) {
    assertEquals(1, source.states().size());
    return source.states().get(0).name();
  }

  private static int ownerOf(Object key) throws CoderException {
    return KeyGroups.instanceForKey(encode(StringUtf8Coder.of(), (String) key), 2);
  }

  private static <T> byte[] encode(Coder<T> coder, T value) throws CoderException {
    return CoderUtils.encodeToByteArray(coder, value);
  }

  private static void assertRowsEqual(List<Expected> expected, List<StateRow> rows) {
    Map<String, Expected> byCell = new HashMap<>();
    for (Expected e : expected) {
      byCell.put(e.key() + "@" + e.window(), e);
    }
    assertEquals(expected.size(), rows.size(), rows::toString);
    for (StateRow row : rows) {
      assertTrue(row.window() != null, "a windowed state's row has bounds: " + row);
      String cell = row.key() + "@" + windowOf(row.window());
      Expected e = byCell.remove(cell);
      assertTrue(e != null, "unexpected or repeated row " + row);
      assertEquals(e.value(), row.value(), cell);
      assertEquals(Instant.ofEpochMilli(e.updatedAt()), row.updatedAt(), cell);
    }
  }

  private static IntervalWindow windowOf(WindowBounds bounds) {
    return new IntervalWindow(
        new org.joda.time.Instant(bounds.start().toEpochMilli()),
        new org.joda.time.Instant(bounds.end().toEpochMilli()));
  }

  @Test
  void readsEveryInstanceAtOnceTakingTheirChunksInTurn() throws Exception {
    Map<String, List<Expected>> oracle = twoInstances();
    PipelineStateSource.cellsPerChunk = 2;
    PipelineStateSource source = new PipelineStateSource(link);
    Iterator<StateRow> it =
        source.rows(stateName(source), Instant.ofEpochMilli(VERSION), null).iterator();
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight());

    List<StateRow> rows = new ArrayList<>();
    rows.add(it.next());
    // Both nodes were asked before the first row was handed on, not one after the other.
    assertTrue(mailboxes[0].tasks.get() >= 1);
    assertTrue(mailboxes[1].tasks.get() >= 1);
    assertEquals(VERSION, link.oldestVersionInFlight(), "the read keeps its version from pruning");
    it.forEachRemaining(rows::add);
    assertFalse(it.hasNext());
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight(), "the read ended");

    List<Expected> all = new ArrayList<>();
    oracle.values().forEach(all::addAll);
    assertRowsEqual(all, rows);

    // Chunks of 2 cells, taken in turn: 2 rows of instance 0, 2 of instance 1, ... until one is
    // out of chunks; then the other's rest.
    int[] cells = new int[2];
    for (Expected e : all) {
      cells[ownerOf(e.key())]++;
    }
    assertTrue(cells[0] > 4 && cells[1] > 4, "both instances hold several chunks");
    List<Integer> expectedOwners = new ArrayList<>();
    for (int round = 0; 2 * round < Math.max(cells[0], cells[1]); round++) {
      for (int i = 0; i < 2; i++) {
        for (int c = 2 * round; c < Math.min(cells[i], 2 * round + 2); c++) {
          expectedOwners.add(i);
        }
      }
    }
    List<Integer> owners = new ArrayList<>();
    for (StateRow row : rows) {
      owners.add(ownerOf(row.key()));
    }
    assertEquals(expectedOwners, owners);
    // One mailbox task per chunk: ceil(cells / 2) each.
    assertEquals((cells[0] + 1) / 2, mailboxes[0].tasks.get());
    assertEquals((cells[1] + 1) / 2, mailboxes[1].tasks.get());
  }

  @Test
  void onKeyReadsOnlyTheOwningInstance() throws Exception {
    Map<String, List<Expected>> oracle = twoInstances();
    PipelineStateSource source = new PipelineStateSource(link);
    String key = "key-7";
    int owner = ownerOf(key);
    List<StateRow> rows = new ArrayList<>();
    source.rows(stateName(source), Instant.ofEpochMilli(VERSION), key).forEach(rows::add);
    assertRowsEqual(oracle.get(key), rows);
    assertEquals(1, mailboxes[owner].tasks.get());
    assertEquals(0, mailboxes[1 - owner].tasks.get());
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight());
  }

  /**
   * An instance that is not running (its job restarts) is waited for, not read around or failed at
   * once; the read fails when the job ends without it, before any chunk was asked for.
   */
  @Test
  void aReadWaitsForAnInstanceThatIsNotRunningAndFailsWhenTheJobEnds() throws Exception {
    twoInstances();
    instances[1].close();
    PipelineStateSource source = new PipelineStateSource(link);
    Iterator<StateRow> it =
        source.rows(stateName(source), Instant.ofEpochMilli(VERSION), null).iterator();
    CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(it::hasNext);
    Thread.sleep(300);
    assertFalse(first.isDone(), "the read went on without instance 1");

    link.close();

    ExecutionException e = assertThrows(ExecutionException.class, first::get);
    assertEquals(
        "instance 1 of "
            + TRANSFORM
            + " is not running (the job ended) and did not pass version "
            + Instant.ofEpochMilli(VERSION)
            + "; its state cannot be read",
        e.getCause().getMessage());
    assertEquals(0, mailboxes[0].tasks.get());
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight());
    assertSame(
        e.getCause(), assertThrows(IllegalStateException.class, it::hasNext), "stays failed");
  }

  /**
   * The defect: after a restart from an earlier epoch an instance's watermark is behind a version
   * the control plane already assigned (the app's reported watermark had passed it), and reading it
   * then committed state without the writes it had yet to replay. The read waits until the instance
   * passes the version again, and then reads everything.
   */
  @Test
  void aReadWaitsForAnInstanceBehindTheVersionUntilItPassesIt() throws Exception {
    Map<String, List<Expected>> oracle = twoInstances();
    InstanceExport behind = instances[1];
    TssLink.Progress progress = behind.progress();
    progress.watermark = VERSION - 1; // as after a restart from an epoch before the version
    PipelineStateSource source = new PipelineStateSource(link);
    Iterator<StateRow> it =
        source.rows(stateName(source), Instant.ofEpochMilli(VERSION), null).iterator();
    CompletableFuture<List<StateRow>> read =
        CompletableFuture.supplyAsync(
            () -> {
              List<StateRow> rows = new ArrayList<>();
              it.forEachRemaining(rows::add);
              return rows;
            });
    Thread.sleep(300);
    assertFalse(read.isDone(), "read an instance whose watermark is behind the version");
    assertEquals(0, mailboxes[1].tasks.get());

    nodes.get(1).submit(() -> behind.watermarkAdvanced(VERSION + 1)).get();

    List<Expected> all = new ArrayList<>();
    oracle.values().forEach(all::addAll);
    assertRowsEqual(all, read.get(60, TimeUnit.SECONDS));
  }

  @Test
  void anInstanceStoppingDuringTheReadFailsItAndEndsTheRead() throws Exception {
    twoInstances();
    PipelineStateSource.cellsPerChunk = 2;
    // Instance 1's node is busy until released: its first chunk stays pending.
    CountDownLatch release = new CountDownLatch(1);
    nodes.get(1).execute(() -> awaitQuietly(release));
    PipelineStateSource source = new PipelineStateSource(link);
    Iterator<StateRow> it =
        source.rows(stateName(source), Instant.ofEpochMilli(VERSION), null).iterator();
    StateRow first = it.next();
    StateRow second = it.next();
    assertEquals(0, ownerOf(first.key()));
    assertEquals(0, ownerOf(second.key()));
    instances[1].close();
    IllegalStateException e = assertThrows(IllegalStateException.class, it::hasNext);
    assertEquals("instance 1 of " + TRANSFORM + " has stopped", e.getMessage());
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight());
    assertThrows(IllegalStateException.class, it::next);
    release.countDown();
  }

  @Test
  void closingAReadTheWriterGaveUpOnReleasesItsVersion() throws Exception {
    twoInstances();
    PipelineStateSource.cellsPerChunk = 2;
    PipelineStateSource source = new PipelineStateSource(link);
    Iterable<StateRow> rows = source.rows(stateName(source), Instant.ofEpochMilli(VERSION), null);
    Iterator<StateRow> it = rows.iterator();
    it.next(); // the writer took one row, then failed
    assertEquals(VERSION, link.oldestVersionInFlight(), "the unfinished read holds its version");

    ((AutoCloseable) rows).close();

    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight(), "closing released it");
    IllegalStateException e = assertThrows(IllegalStateException.class, it::hasNext);
    assertTrue(e.getMessage().contains("was closed"), e.getMessage());
    // A finished read is left as it is, and a new iteration reads everything again.
    List<StateRow> again = new ArrayList<>();
    rows.iterator().forEachRemaining(again::add);
    ((AutoCloseable) rows).close();
    assertEquals(Long.MAX_VALUE, link.oldestVersionInFlight());
    assertTrue(again.size() > 4, "read again: " + again.size());
  }

  /**
   * The link lives as long as the job's graph, which the web UI keeps for ended jobs: a closed
   * instance, with its state history and buffers, must not stay reachable through it.
   */
  @Test
  void theLinkHoldsNoClosedInstance() throws Exception {
    twoInstances();
    WeakReference<InstanceExport> closed = new WeakReference<>(instances[0]);
    instances[0].close();
    instances[0] = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (closed.get() != null && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertNull(closed.get(), "a closed instance is still reachable");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void keysDecodeAsCoderUtilsDecodesThem() throws Exception {
    KeyDecoder strings = new KeyDecoder(StringUtf8Coder.of());
    for (String s : List.of("", "a", "key-1", "ünïcödé ✓", "x".repeat(10_000))) {
      assertEquals(
          CoderUtils.decodeFromByteArray(
              StringUtf8Coder.of(), CoderUtils.encodeToByteArray(StringUtf8Coder.of(), s)),
          strings.decode(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), s)));
    }
    KeyDecoder longs = new KeyDecoder(VarLongCoder.of());
    for (long v : new long[] {0, 1, -1, 300, Long.MAX_VALUE, Long.MIN_VALUE}) {
      assertEquals(v, longs.decode(CoderUtils.encodeToByteArray(VarLongCoder.of(), v)));
    }
    KvCoder<String, Long> kvCoder = KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
    KV<String, Long> kv = KV.of("user", 42L);
    assertEquals(kv, new KeyDecoder(kvCoder).decode(CoderUtils.encodeToByteArray(kvCoder, kv)));

    byte[] extra = CoderUtils.encodeToByteArray(VarLongCoder.of(), 7L);
    byte[] withExtra = java.util.Arrays.copyOf(extra, extra.length + 2);
    CoderException e = assertThrows(CoderException.class, () -> longs.decode(withExtra));
    assertTrue(e.getMessage().startsWith("2 unexpected extra bytes"), e.getMessage());
  }

  @Test
  void namespacesDecodeToTheirWindowsBeyondTheRememberedOnes() {
    NamespaceWindows windows = new NamespaceWindows(IntervalWindow.getCoder());
    assertNull(windows.boundsOf(StateNamespaces.global().stringKey()));
    int distinct = NamespaceWindows.MAX_REMEMBERED + 100;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < distinct; i++) {
        IntervalWindow w =
            new IntervalWindow(
                new org.joda.time.Instant(1_000L * i), new org.joda.time.Instant(1_000L * i + 7));
        String ns = StateNamespaces.window(IntervalWindow.getCoder(), w).stringKey();
        WindowBounds bounds = windows.boundsOf(ns);
        assertEquals(Instant.ofEpochMilli(1_000L * i), bounds.start());
        assertEquals(Instant.ofEpochMilli(1_000L * i + 7), bounds.end());
        assertNull(windows.boundsOf(StateNamespaces.global().stringKey()));
      }
    }
    NamespaceWindows global = new NamespaceWindows(GlobalWindow.Coder.INSTANCE);
    assertNull(
        global.boundsOf(
            StateNamespaces.window(GlobalWindow.Coder.INSTANCE, GlobalWindow.INSTANCE)
                .stringKey()));
  }
}
