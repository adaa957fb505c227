package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.progress.SourceProgress;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.UnboundedSource.CheckpointMark;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;

/**
 * Primitive unbounded Read, optionally bounded by {@link Limits} (Beam's {@code
 * BoundedReadFromUnboundedSource}, read here directly so all splits read concurrently instead of
 * one blocking DoFn call per split): the source is split into one split per instance (or as many as
 * it gives); each instance round-robins over its readers. The instance's watermark is the minimum
 * of its readers' watermarks; a reader whose watermark reaches the end of time is finished.
 *
 * <p>Without checkpointing, checkpoint marks are finalized when the bundle that read their records
 * is finished. With checkpointing, an epoch's snapshot holds, per unfinished split, the split and
 * its reader's checkpoint mark (plus the record ids seen, for sources that require deduping), and
 * the marks taken for epoch n are finalized only once an epoch {@code >= n} completed: only then
 * are the records they acknowledge part of a durable epoch.
 */
public final class UnboundedReadSource<T> extends ReadSource {
  static final String SNAPSHOT_FILE = "unbounded-read";
  private static final String SNAPSHOT_KIND = "unbounded-read";
  private static final int SNAPSHOT_FORMAT = 1;
  private static final int DEDUP_CAPACITY = 100_000;

  /**
   * Where reading stops (Beam's {@code BoundedReadFromUnboundedSource}): after {@code
   * maxNumRecords} records over all splits, or {@code maxReadTimeMillis} after a split's reader
   * started; {@link #NONE} reads forever.
   */
  public record Limits(long maxNumRecords, long maxReadTimeMillis) {
    public static final Limits NONE = new Limits(Long.MAX_VALUE, Long.MAX_VALUE);

    /** The records split {@code split} of {@code splits} may read: an even share of the total. */
    long recordsForSplit(int split, int splits) {
      if (maxNumRecords == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      long share = maxNumRecords / splits;
      return split < maxNumRecords % splits ? share + 1 : share;
    }
  }

  /** One split this instance reads, its reader and how far it got. */
  private static final class SplitReader<T> {
    final UnboundedSource<T, ?> split;
    final UnboundedSource.UnboundedReader<T> reader;

    /**
     * The mark the reader was created from (null: the split's beginning). It is the split's
     * position until the reader starts, and that position's watermark is {@link #resumedWatermark}.
     */
    final CheckpointMark resumedFrom;

    final long resumedWatermark;
    boolean started;
    boolean finished;
    long recordsLeft;

    /** How long the reader may still read once started ({@code Long.MAX_VALUE}: no limit). */
    final long readBudgetMillis;

    long readUntilMillis = Long.MAX_VALUE;

    /** A finished reader's last mark was taken for finalization; later ones would repeat it. */
    boolean lastMarkTaken;

    SplitReader(
        UnboundedSource<T, ?> split,
        UnboundedSource.UnboundedReader<T> reader,
        CheckpointMark resumedFrom,
        long resumedWatermark,
        long recordsLeft,
        long readBudgetMillis) {
      this.split = split;
      this.reader = reader;
      this.resumedFrom = resumedFrom;
      this.resumedWatermark = resumedWatermark;
      this.recordsLeft = recordsLeft;
      this.readBudgetMillis = readBudgetMillis;
      this.finished = recordsLeft == 0;
    }
  }

  /** A split's position as a snapshot holds it. */
  private record Position<T>(
      UnboundedSource<T, ?> split,
      CheckpointMark mark,
      long watermark,
      long recordsLeft,
      long readBudgetMillis) {}

  /** The marks taken for one epoch, waiting for an epoch at least as late to complete. */
  private record PendingMarks(long epoch, List<CheckpointMark> marks) {}

  private final UnboundedSource<T, ?> source;
  private final Limits limits;
  private final List<SplitReader<T>> readers = new ArrayList<>();
  private final Deque<PendingMarks> pendingFinalization = new ArrayDeque<>();
  private long watermark = Long.MIN_VALUE;
  private Map<ByteBuffer, Boolean> seenIds;

  /** Records read since this instance opened, published to {@link #progress} once per poll. */
  private long recordsRead;

  /** A read without limits whose progress nobody observes. */
  public UnboundedReadSource(
      UnboundedSource<T, ?> source, PipelineOptions options, OperatorMetrics metrics) {
    this(source, options, metrics, Limits.NONE, null, null);
  }

  /**
   * @param reads the job's read counters, into which each instance reports under {@code step}; null
   *     when nobody observes this read
   */
  public UnboundedReadSource(
      UnboundedSource<T, ?> source,
      PipelineOptions options,
      OperatorMetrics metrics,
      Limits limits,
      ReadProgress reads,
      String step) {
    super(options, metrics, false, reads, step);
    this.source = source;
    this.limits = limits;
  }

  @Override
  void openReaders(OperatorContext ctx) throws Exception {
    List<ByteBuffer> restoredIds = new ArrayList<>();
    if (ctx.restore() != null) {
      resume(ctx, restoredIds);
    } else {
      start(ctx);
    }
    if (source.requiresDeduping()) {
      // A changed parallelism hands this instance the ids of several previous instances: keep them
      // all (their splits' redeliveries may come here), the bound applies again to new ids.
      int capacity = Math.max(DEDUP_CAPACITY, restoredIds.size());
      seenIds =
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Boolean> eldest) {
              return size() > capacity;
            }
          };
      for (ByteBuffer id : restoredIds) {
        seenIds.put(id, Boolean.TRUE);
      }
    }
  }

  private void start(OperatorContext ctx) throws Exception {
    List<? extends UnboundedSource<T, ?>> splits = source.split(ctx.parallelism(), options);
    if (splits.isEmpty()) {
      splits = List.of(source);
    }
    for (int i = ctx.instanceIndex(); i < splits.size(); i += ctx.parallelism()) {
      UnboundedSource<T, ?> split = splits.get(i);
      readers.add(
          new SplitReader<>(
              split,
              split.createReader(options, null),
              null,
              Long.MIN_VALUE,
              limits.recordsForSplit(i, splits.size()),
              limits.maxReadTimeMillis()));
    }
  }

  /**
   * Reopens this instance's share of the checkpoint's splits at their marks. The instance's
   * watermark starts at the minimum of its splits' watermarks at the checkpoint, so it does not
   * fall back while the readers restart.
   */
  private void resume(OperatorContext ctx, List<ByteBuffer> restoredIds) throws Exception {
    OperatorRestore restore = ctx.restore();
    List<Position<T>> positions = new ArrayList<>();
    for (Path directory : directoriesToRestore(restore, ctx.instanceIndex())) {
      readPositions(directory.resolve(SNAPSHOT_FILE), positions, restoredIds);
    }
    long resumedWatermark = Long.MAX_VALUE;
    for (Position<T> position : shareOf(positions, restore, ctx)) {
      readers.add(
          new SplitReader<>(
              position.split(),
              createReader(position.split(), position.mark()),
              position.mark(),
              position.watermark(),
              position.recordsLeft(),
              position.readBudgetMillis()));
      resumedWatermark = Math.min(resumedWatermark, position.watermark());
    }
    watermark = readers.isEmpty() ? Long.MIN_VALUE : resumedWatermark;
  }

  @SuppressWarnings("unchecked")
  private <M extends CheckpointMark> UnboundedSource.UnboundedReader<T> createReader(
      UnboundedSource<T, M> split, CheckpointMark mark) throws Exception {
    return split.createReader(options, (M) mark);
  }

  @SuppressWarnings("unchecked")
  private void readPositions(Path file, List<Position<T>> positions, List<ByteBuffer> ids)
      throws Exception {
    SnapshotReader in = SnapshotReader.open(file, SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    int splits = in.readCount("split count", 1);
    for (int s = 0; s < splits; s++) {
      UnboundedSource<T, ?> split = in.readSerialized(UnboundedSource.class, "split " + s);
      CheckpointMark mark =
          in.readBoolean("mark flag of split " + s)
              ? in.readEncoded(split.getCheckpointMarkCoder(), "checkpoint mark of split " + s)
              : null;
      long splitWatermark = in.readLong("watermark of split " + s);
      long recordsLeft = in.readLong("records left of split " + s);
      long readBudgetMillis = in.readLong("read time left of split " + s);
      if (recordsLeft <= 0 || readBudgetMillis < 0) {
        throw in.corrupt(
            "split " + s + " has " + recordsLeft + " records and " + readBudgetMillis + " ms left",
            null);
      }
      positions.add(new Position<>(split, mark, splitWatermark, recordsLeft, readBudgetMillis));
    }
    if (in.readBoolean("dedup flag")) {
      int count = in.readCount("record id count", Integer.BYTES);
      for (int i = 0; i < count; i++) {
        ids.add(ByteBuffer.wrap(in.readBytes("record id " + i)));
      }
    }
    in.expectEnd();
  }

  @Override
  PollResult read(int maxElements) throws Exception {
    int emitted = 0;
    int perReader = Math.max(1, maxElements / Math.max(1, readers.size()));
    for (SplitReader<T> r : readers) {
      if (r.finished) {
        continue;
      }
      UnboundedSource.UnboundedReader<T> reader = r.reader;
      int n = 0;
      while (n < perReader && r.recordsLeft > 0) {
        boolean available;
        if (!r.started) {
          r.started = true;
          if (r.readBudgetMillis != Long.MAX_VALUE) {
            r.readUntilMillis = System.currentTimeMillis() + r.readBudgetMillis;
          }
          available = reader.start();
        } else {
          available = reader.advance();
        }
        if (!available) {
          break;
        }
        n++;
        if (r.recordsLeft != Long.MAX_VALUE) {
          r.recordsLeft--;
        }
        if (seenIds != null) {
          ByteBuffer id = ByteBuffer.wrap(reader.getCurrentRecordId());
          if (seenIds.put(id, Boolean.TRUE) != null) {
            continue;
          }
        }
        emitCurrent(reader);
      }
      emitted += n;
      if (!reader.getWatermark().isBefore(BoundedWindow.TIMESTAMP_MAX_VALUE)
          || r.recordsLeft == 0
          || System.currentTimeMillis() >= r.readUntilMillis) {
        r.finished = true;
      }
    }
    recordsRead += emitted;
    // Unbounded readers tell their backlog, not what they read: bytes stay unknown.
    progress.read(recordsRead, SourceProgress.UNKNOWN);
    updateWatermark();
    if (watermark == Long.MAX_VALUE) {
      return PollResult.DONE;
    }
    return emitted > 0 ? PollResult.MORE : PollResult.IDLE;
  }

  private void updateWatermark() {
    long min = Long.MAX_VALUE;
    for (SplitReader<T> r : readers) {
      if (r.finished) {
        continue;
      }
      // A reader not started yet stands at the watermark of the position it resumes from.
      long readerWatermark =
          r.started ? Watermarks.fromInstant(r.reader.getWatermark()) : r.resumedWatermark;
      min = Math.min(min, readerWatermark);
    }
    watermark = Math.max(watermark, min);
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  /**
   * Writes every unfinished split with its position, and keeps the marks taken (those of finished
   * readers too: they acknowledge records read in this epoch) until the epoch completes.
   */
  @Override
  void writePosition(OperatorSnapshot snapshot) throws Exception {
    long now = System.currentTimeMillis();
    List<CheckpointMark> taken = new ArrayList<>();
    SnapshotWriter out = new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    out.writeInt((int) readers.stream().filter(r -> !r.finished).count());
    for (SplitReader<T> r : readers) {
      CheckpointMark mark = r.resumedFrom;
      if (r.started && !r.lastMarkTaken) {
        mark = r.reader.getCheckpointMark();
        taken.add(mark);
        r.lastMarkTaken = r.finished;
      }
      if (r.finished) {
        continue;
      }
      out.writeSerialized(r.split);
      out.writeBoolean(mark != null);
      if (mark != null) {
        writeMark(out, r.split, mark);
      }
      out.writeLong(
          r.started ? Watermarks.fromInstant(r.reader.getWatermark()) : r.resumedWatermark);
      out.writeLong(r.recordsLeft);
      out.writeLong(
          !r.started || r.readUntilMillis == Long.MAX_VALUE
              ? r.readBudgetMillis
              : Math.max(0, r.readUntilMillis - now));
    }
    out.writeBoolean(seenIds != null);
    if (seenIds != null) {
      out.writeInt(seenIds.size());
      for (ByteBuffer id : seenIds.keySet()) {
        out.writeBytes(id.array());
      }
    }
    out.writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
    if (context.checkpointingEnabled() && !taken.isEmpty()) {
      PendingMarks last = pendingFinalization.peekLast();
      if (last != null && last.epoch() >= snapshot.epoch()) {
        throw new IllegalStateException(
            "Epoch " + snapshot.epoch() + " snapshotted after epoch " + last.epoch());
      }
      pendingFinalization.addLast(new PendingMarks(snapshot.epoch(), taken));
    }
  }

  @SuppressWarnings("unchecked")
  private static <M extends CheckpointMark> void writeMark(
      SnapshotWriter out, UnboundedSource<?, M> split, CheckpointMark mark) throws Exception {
    Coder<M> coder = split.getCheckpointMarkCoder();
    out.writeEncoded(coder, (M) mark);
  }

  /**
   * Finalizes, in epoch order, the marks of every epoch up to {@code epoch}: an epoch that never
   * completed (its snapshot failed) has its marks finalized with the next one that does, since that
   * epoch's state contains every record they acknowledge.
   */
  @Override
  public void epochCompleted(long epoch) throws Exception {
    while (!pendingFinalization.isEmpty() && pendingFinalization.peekFirst().epoch() <= epoch) {
      PendingMarks pending = pendingFinalization.pollFirst();
      inMetricsScope(
          () -> {
            for (CheckpointMark mark : pending.marks()) {
              mark.finalizeCheckpoint();
            }
          });
    }
  }

  @Override
  public void finishBundle() throws Exception {
    if (context.checkpointingEnabled()) {
      return; // marks wait for their epoch (see epochCompleted)
    }
    for (SplitReader<T> r : readers) {
      if (r.started) {
        r.reader.getCheckpointMark().finalizeCheckpoint();
      }
    }
  }

  /** Closes the readers; marks of epochs that did not complete are dropped, never finalized. */
  @Override
  public void close() throws Exception {
    pendingFinalization.clear();
    for (SplitReader<T> r : readers) {
      r.reader.close();
    }
    readers.clear();
  }
}
