package io.arcon.runner.tss;

import io.arcon.runner.state.KeyDecoder;
import io.arcon.runner.state.history.StateHistory;
import io.arcon.runner.tss.catalog.UserState;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.tss.agent.StateSource;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline as the TSS agent sees it: the catalog of its user states, and the rows of one state
 * at a version time, read from every parallel instance of the transform that holds it (only the
 * owning instance for {@code ON KEY}), chunk by chunk in each node's mailbox, all instances at
 * once.
 */
final class PipelineStateSource implements StateSource {
  /**
   * Cells per mailbox task: small enough that a node is back to its input within about 10 ms, large
   * enough that the round trips do not dominate. Measured on the extraction benchmark (1M keys,
   * parallelism 2): about 9.5 ms of node CPU per chunk on heap and 6.5 ms on rocksdb, except heap's
   * first chunk of a table, which builds the table's ordered key index.
   */
  static final int CELLS_PER_CHUNK = 8192;

  /** How often a read that waits for an instance to pass its version looks again. */
  private static final long AWAIT_PASSED_POLL_MILLIS = 20;

  private static final Logger LOG = LoggerFactory.getLogger(PipelineStateSource.class);

  /** Cells per chunk of the sources created from now on (tests make it tiny to cross chunks). */
  static volatile int cellsPerChunk = CELLS_PER_CHUNK;

  private final TssLink link;

  PipelineStateSource(TssLink link) {
    this.link = link;
  }

  @Override
  public List<StateDescriptor> states() {
    return link.catalog().states().stream().map(UserState::descriptor).toList();
  }

  @Override
  public void statesRead(Set<String> stateNames) {
    link.statesRead(stateNames);
  }

  @Override
  public Iterable<StateRow> rows(String stateName, Instant versionTime, Object keyFilter)
      throws Exception {
    UserState state =
        link.catalog()
            .byName(stateName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "app " + link.settings().app() + " has no state " + stateName));
    InstanceExport[] instances = link.instancesOf(state.transformFullName());
    byte[] onlyKey = null;
    int[] readFrom;
    Object beamKey = keyFilter == null ? null : state.key().toBeam(keyFilter);
    if (beamKey != null) {
      onlyKey = encode(state.keyCoder(), beamKey);
      readFrom = new int[] {KeyGroups.instanceForKey(onlyKey, instances.length)};
    } else {
      readFrom = new int[instances.length];
      for (int i = 0; i < readFrom.length; i++) {
        readFrom[i] = i;
      }
    }
    long version = versionTime.toEpochMilli();
    byte[] keyBytes = onlyKey;
    int chunk = cellsPerChunk;
    return new Read(() -> new Rows(state, instances, readFrom, version, keyBytes, chunk));
  }

  /**
   * The rows of one state at one version: each iteration reads anew; {@link #close} (the agent
   * calls it when the version's file is written or failed) releases what an iteration left
   * unfinished — its version, which holds back pruning, and its pending chunks.
   */
  private static final class Read implements Iterable<StateRow>, AutoCloseable {
    private final Supplier<Rows> start;
    private final List<Rows> started = new CopyOnWriteArrayList<>();

    Read(Supplier<Rows> start) {
      this.start = start;
    }

    @Override
    public Iterator<StateRow> iterator() {
      Rows rows = start.get();
      started.add(rows);
      return rows;
    }

    @Override
    public void close() {
      for (Rows rows : started) {
        rows.close();
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static byte[] encode(Coder coder, Object value) throws Exception {
    return CoderUtils.encodeToByteArray(coder, value);
  }

  /**
   * Reads every instance at once: one chunk request outstanding per instance, chunks taken
   * round-robin, so the nodes assemble their next chunks while the agent converts and writes the
   * current one (rows of different instances interleave). Cells become rows as they are taken.
   */
  private final class Rows implements Iterator<StateRow> {
    private final UserState state;
    private final InstanceExport[] instances;
    private final int[] readFrom;
    private final long version;
    private final byte[] onlyKey;
    private final int chunkCells;
    private final KeyDecoder keys;
    private final NamespaceWindows windows;

    /** One per instance read from, null until the first {@link #hasNext}. */
    private InstanceRead[] reads;

    /** The read whose chunk is taken next. */
    private int turn;

    /** The cells of the chunk being handed on, and the next one's index. */
    private List<StateHistory.CellVersion> cells = List.of();

    private int nextCell;

    private boolean reading;
    private boolean done;

    /** What ended the read early; every later call rethrows it. */
    private RuntimeException failure;

    Rows(
        UserState state,
        InstanceExport[] instances,
        int[] readFrom,
        long version,
        byte[] onlyKey,
        int chunkCells) {
      this.chunkCells = chunkCells;
      this.state = state;
      this.instances = instances;
      this.readFrom = readFrom;
      this.version = version;
      this.onlyKey = onlyKey;
      this.keys = new KeyDecoder(state.keyCoder());
      this.windows = new NamespaceWindows(link.windowCoderOf(state.transformFullName()));
    }

    @Override
    public boolean hasNext() {
      if (failure != null) {
        throw failure;
      }
      if (done) {
        return false;
      }
      if (!reading) {
        reading = true;
        link.readStarts(version);
      }
      try {
        if (reads == null) {
          reads = start();
        }
        while (nextCell == cells.size()) {
          InstanceRead read = nextUnfinished();
          if (read == null) {
            done = true;
            reading = false;
            link.readEnds(version);
            return false;
          }
          cells = read.take();
          nextCell = 0;
        }
        return true;
      } catch (RuntimeException e) {
        throw fail(e);
      }
    }

    @Override
    public StateRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      StateHistory.CellVersion cell = cells.get(nextCell);
      // Release the cell with the row: a chunk's rows may sit in the writer's buffers meanwhile.
      nextCell++;
      try {
        return toRow(cell);
      } catch (RuntimeException e) {
        throw fail(e);
      }
    }

    /** Waits until every instance read from has passed the version, then asks each for a chunk. */
    private InstanceRead[] start() {
      for (int index : readFrom) {
        awaitPassed(index);
      }
      InstanceRead[] started = new InstanceRead[readFrom.length];
      for (int i = 0; i < readFrom.length; i++) {
        started[i] = new InstanceRead(instances[readFrom[i]], readFrom[i]);
        started[i].request();
      }
      return started;
    }

    /**
     * Waits until instance {@code index} runs and its input watermark is past the version, i.e. it
     * applied every input before it.
     *
     * <p>Why: the control plane assigns a version once the app's reported watermark passed it, but
     * an instance may be behind that: it restarted ({@code --numberOfExecutionRetries}) from an
     * earlier epoch and replays, or it is not open again yet. Reading it then would commit a
     * version that misses writes before T. A job that ends while this waits fails the read.
     */
    private void awaitPassed(int index) {
      boolean told = false;
      while (true) {
        InstanceExport instance = instances[index];
        TssLink.Progress progress = instance == null ? null : instance.progress();
        if (progress != null && progress.watermark > version) {
          return;
        }
        if (link.closed()) {
          throw new IllegalStateException(
              "instance "
                  + index
                  + " of "
                  + state.transformFullName()
                  + " is not running (the job ended) and did not pass version "
                  + Instant.ofEpochMilli(version)
                  + "; its state cannot be read");
        }
        if (!told) {
          told = true;
          LOG.info(
              "TSS: version {} of {} waits for instance {} of {} to pass it ({})",
              Instant.ofEpochMilli(version),
              state.name(),
              index,
              state.transformFullName(),
              instance == null
                  ? "it is not running: the job restarts"
                  : "it replays after a restart");
        }
        try {
          Thread.sleep(AWAIT_PASSED_POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for " + state.name(), e);
        }
      }
    }

    /** The next read in turn that has chunks left, or null when all are finished. */
    private InstanceRead nextUnfinished() {
      for (int tried = 0; tried < reads.length; tried++) {
        InstanceRead read = reads[turn];
        turn = (turn + 1) % reads.length;
        if (!read.finished()) {
          return read;
        }
      }
      return null;
    }

    /** Stops an unfinished read (the writer gave up): as a failure, without one to rethrow. */
    void close() {
      if (!done && failure == null) {
        fail(new IllegalStateException("the read of " + state.name() + " was closed"));
      }
    }

    /** Ends the read for good: the version is no longer in flight, pending chunks are dropped. */
    private RuntimeException fail(RuntimeException e) {
      failure = e;
      cells = List.of();
      if (reads != null) {
        for (InstanceRead read : reads) {
          read.abandon();
        }
      }
      if (reading) {
        reading = false;
        link.readEnds(version);
      }
      return e;
    }

    private StateRow toRow(StateHistory.CellVersion cell) {
      Object key;
      try {
        key = keys.decode(cell.encodedKey());
      } catch (Exception e) {
        throw new IllegalStateException("cannot decode a key of " + state.name(), e);
      }
      return new StateRow(
          state.key().toModel(key),
          windows.boundsOf(cell.namespace()),
          state.value().toModel(cell.value()),
          Instant.ofEpochMilli(cell.updatedAtMillis()));
    }

    /** The read of one instance: where it is, and the chunk asked for and not yet taken. */
    private final class InstanceRead {
      private final InstanceExport instance;
      private final int index;
      private byte[] cursor;
      private CompletableFuture<StateHistory.Chunk> pending;
      private boolean finished;

      InstanceRead(InstanceExport instance, int index) {
        this.instance = instance;
        this.index = index;
      }

      boolean finished() {
        return finished;
      }

      void request() {
        pending = instance.readChunk(state.stateId(), version, onlyKey, cursor, chunkCells);
      }

      /** Waits for the pending chunk, asks for the next one, and returns the chunk's cells. */
      List<StateHistory.CellVersion> take() {
        StateHistory.Chunk chunk;
        try {
          chunk = pending.get(InstanceExport.CHUNK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while reading " + state.name(), e);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          throw new IllegalStateException(
              cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        } catch (TimeoutException e) {
          throw new IllegalStateException(
              "instance "
                  + index
                  + " of "
                  + state.transformFullName()
                  + " did not answer within "
                  + InstanceExport.CHUNK_TIMEOUT);
        }
        pending = null;
        cursor = chunk.nextCursor();
        if (cursor == null) {
          finished = true;
        } else {
          request();
        }
        return chunk.cells();
      }

      /** Drops the pending chunk (its mailbox task still runs; its answer is ignored). */
      void abandon() {
        finished = true;
        if (pending != null) {
          pending.cancel(false);
          pending = null;
        }
      }
    }
  }
}
