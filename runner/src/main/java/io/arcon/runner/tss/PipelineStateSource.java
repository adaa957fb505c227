package io.arcon.runner.tss;

import io.arcon.runner.state.history.StateHistory;
import io.arcon.runner.tss.catalog.UserState;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.tss.agent.StateSource;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.WindowBounds;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.util.CoderUtils;

/**
 * The pipeline as the TSS agent sees it: the catalog of its user states, and the rows of one state
 * at a version time, read from every parallel instance of the transform that holds it (only the
 * owning instance for {@code ON KEY}), chunk by chunk in each node's mailbox.
 */
final class PipelineStateSource implements StateSource {
  /** Cells per mailbox task: small enough that a node is back to its input within milliseconds. */
  static final int CELLS_PER_CHUNK = 2048;

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
    return () -> new Rows(state, instances, readFrom, version, keyBytes, chunk);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static byte[] encode(Coder coder, Object value) throws Exception {
    return CoderUtils.encodeToByteArray(coder, value);
  }

  /** Walks the instances one after the other, a chunk at a time. */
  private final class Rows implements Iterator<StateRow> {
    private final UserState state;
    private final InstanceExport[] instances;
    private final int[] readFrom;
    private final long version;
    private final byte[] onlyKey;
    private final int chunkCells;
    private final ArrayDeque<StateRow> buffered = new ArrayDeque<>();
    private int next; // index into readFrom
    private byte[] cursor;

    /**
     * The next chunk, asked for before the current one is handed on, so reading overlaps writing.
     */
    private CompletableFuture<StateHistory.Chunk> prefetched;

    private boolean instanceDone = true;
    private boolean reading;

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
    }

    @Override
    public boolean hasNext() {
      if (!reading) {
        reading = true;
        link.readStarts(version);
      }
      try {
        while (buffered.isEmpty()) {
          if (instanceDone) {
            if (next == readFrom.length) {
              link.readEnds(version);
              reading = false;
              next = readFrom.length + 1; // stays done
              return false;
            }
            if (next > readFrom.length) {
              return false;
            }
            instanceDone = false;
            cursor = null;
            prefetched = null;
          }
          fetch(instances[readFrom[next]], readFrom[next]);
        }
        return true;
      } catch (RuntimeException e) {
        link.readEnds(version);
        reading = false;
        throw e;
      }
    }

    private void fetch(InstanceExport instance, int index) {
      if (instance == null) {
        throw new IllegalStateException(
            "instance "
                + index
                + " of "
                + state.transformFullName()
                + " is not running; its state cannot be read");
      }
      StateHistory.Chunk chunk;
      try {
        CompletableFuture<StateHistory.Chunk> request =
            prefetched != null
                ? prefetched
                : instance.readChunk(state.stateId(), version, onlyKey, cursor, chunkCells);
        prefetched = null;
        chunk = request.get(InstanceExport.CHUNK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
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
      cursor = chunk.nextCursor();
      if (cursor == null) {
        instanceDone = true;
        next++;
      } else {
        prefetched = instance.readChunk(state.stateId(), version, onlyKey, cursor, chunkCells);
      }
      for (StateHistory.CellVersion cell : chunk.cells()) {
        buffered.add(toRow(cell));
      }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private StateRow toRow(StateHistory.CellVersion cell) {
      Object key;
      try {
        key = CoderUtils.decodeFromByteArray((Coder) state.keyCoder(), cell.encodedKey());
      } catch (Exception e) {
        throw new IllegalStateException("cannot decode a key of " + state.name(), e);
      }
      return new StateRow(
          state.key().toModel(key),
          windowOf(cell.namespace()),
          state.value().toModel(cell.value()),
          Instant.ofEpochMilli(cell.updatedAtMillis()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private WindowBounds windowOf(String namespace) {
      StateNamespace ns =
          StateNamespaces.fromString(
              namespace, (Coder) link.windowCoderOf(state.transformFullName()));
      if (ns instanceof StateNamespaces.WindowNamespace<?> w) {
        BoundedWindow window = w.getWindow();
        if (window instanceof GlobalWindow) {
          return null;
        }
        if (window instanceof IntervalWindow iw) {
          return new WindowBounds(
              Instant.ofEpochMilli(iw.start().getMillis()),
              Instant.ofEpochMilli(iw.end().getMillis()));
        }
        // Other windows have no bounds of their own; the end is the window's max timestamp.
        return new WindowBounds(
            Instant.ofEpochMilli(window.maxTimestamp().getMillis()),
            Instant.ofEpochMilli(window.maxTimestamp().getMillis()));
      }
      return null; // global namespace
    }

    @Override
    public StateRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return buffered.poll();
    }
  }
}
