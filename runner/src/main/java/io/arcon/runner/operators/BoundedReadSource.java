package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.progress.SourceProgress;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Primitive bounded Read: the source is split once at start into about one split per instance (more
 * when the source splits finer); instance i reads splits i, i+p, i+2p, ... one after the other. The
 * watermark stays at its minimum until every split is read.
 *
 * <p>A snapshot holds the splits not finished yet and, for the one being read, how many of its
 * elements were emitted. Restoring re-reads that split from its start and skips as many: this needs
 * the split's reader to return the same elements in the same order, which Beam's {@link
 * BoundedSource} contract gives for a given split (a reader that does not is reported, not silently
 * resumed at the wrong element). Beam offers no general way to make a source start at a reader's
 * current record: {@code splitAtFraction} cuts at a later split point, and the records between the
 * current one and that point would be lost, so it is not used.
 */
public final class BoundedReadSource<T> extends ReadSource {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedReadSource.class);
  static final String SNAPSHOT_FILE = "bounded-read";
  private static final String SNAPSHOT_KIND = "bounded-read";
  private static final int SNAPSHOT_FORMAT = 1;

  /** A split still to read, and how many of its elements were emitted. */
  private static final class SplitPosition<T> {
    final BoundedSource<T> split;
    long emitted;

    SplitPosition(BoundedSource<T> split, long emitted) {
      this.split = split;
      this.emitted = emitted;
    }
  }

  private final BoundedSource<T> source;
  private final List<SplitPosition<T>> mySplits = new ArrayList<>();

  /** The split being read; the ones before it are finished. */
  private int current;

  /** The reader of split {@link #current}, or null before it is opened. */
  private BoundedSource.BoundedReader<T> reader;

  private boolean done;

  // Progress, kept by the node thread and published once per poll. Bytes read are the reader's
  // getFractionConsumed() times its split's estimated size, plus the sizes of the splits finished:
  // one call per poll, no per-element work, and in the units of the estimate they are shown
  // against (a file's bytes, where a sampled coder size would measure encoded elements instead).
  // A finished split counts its whole estimate, so the total reaches the estimate at the end; a
  // reader that cannot tell its fraction moves the count split by split.

  /** Estimated bytes of each of {@link #mySplits}, {@link SourceProgress#UNKNOWN} if not known. */
  private long[] splitBytes;

  /** The sum of {@link #splitBytes}, {@link SourceProgress#UNKNOWN} if one is not known. */
  private long estimatedBytes = SourceProgress.UNKNOWN;

  /** The estimated bytes of the splits finished since this instance opened. */
  private long finishedSplitBytes;

  /** Elements emitted since this instance opened. */
  private long elementsRead;

  /** A read whose progress nobody observes. */
  public BoundedReadSource(
      BoundedSource<T> source, PipelineOptions options, OperatorMetrics metrics) {
    this(source, options, metrics, null, null);
  }

  /**
   * @param reads the job's read counters, into which each instance reports under {@code step}
   */
  public BoundedReadSource(
      BoundedSource<T> source,
      PipelineOptions options,
      OperatorMetrics metrics,
      ReadProgress reads,
      String step) {
    super(options, metrics, true, reads, step);
    this.source = source;
  }

  @Override
  void openReaders(OperatorContext ctx) throws Exception {
    if (ctx.restore() != null) {
      List<SplitPosition<T>> positions = new ArrayList<>();
      for (Path directory : directoriesToRestore(ctx.restore(), ctx.instanceIndex())) {
        readPositions(directory.resolve(SNAPSHOT_FILE), positions);
      }
      mySplits.addAll(shareOf(positions, ctx.restore(), ctx));
    } else {
      List<? extends BoundedSource<T>> splits = split(source, options, ctx.parallelism());
      for (int i = ctx.instanceIndex(); i < splits.size(); i += ctx.parallelism()) {
        mySplits.add(new SplitPosition<>(splits.get(i), 0));
      }
    }
    estimateSizes();
  }

  /**
   * Estimates the size of this instance's splits once, before reading: the progress of a restored
   * instance is measured against what it has left.
   */
  private void estimateSizes() {
    splitBytes = new long[mySplits.size()];
    long total = 0;
    for (int i = 0; i < splitBytes.length; i++) {
      splitBytes[i] = estimatedSize(mySplits.get(i).split);
      total = total < 0 || splitBytes[i] < 0 ? SourceProgress.UNKNOWN : total + splitBytes[i];
    }
    estimatedBytes = total;
    progress.estimatedBytes(total);
    progress.read(0, bytesRead());
  }

  private long estimatedSize(BoundedSource<T> split) {
    try {
      return split.getEstimatedSizeBytes(options);
    } catch (Exception e) {
      // Only progress needs it: read without a size rather than fail the job.
      LOG.debug("No size estimate for {}: {}", split, e.toString());
      return SourceProgress.UNKNOWN;
    }
  }

  static <T> List<? extends BoundedSource<T>> split(
      BoundedSource<T> source, PipelineOptions options, int parallelism) throws Exception {
    if (parallelism == 1) {
      return List.of(source);
    }
    long size = source.getEstimatedSizeBytes(options);
    long desired = Math.max(1, size / parallelism);
    List<? extends BoundedSource<T>> splits = source.split(desired, options);
    return splits.isEmpty() ? List.of(source) : splits;
  }

  @Override
  PollResult read(int maxElements) throws Exception {
    int emitted = 0;
    PollResult result = PollResult.MORE;
    while (emitted < maxElements) {
      boolean available;
      if (reader == null) {
        if (current >= mySplits.size()) {
          done = true;
          result = PollResult.DONE;
          break;
        }
        available = openAtPosition(mySplits.get(current));
      } else {
        available = reader.advance();
      }
      if (!available) {
        reader.close();
        reader = null;
        finishedSplitBytes += splitBytes[current]; // used only when every split has a size
        current++;
        continue;
      }
      emitCurrent(reader);
      mySplits.get(current).emitted++;
      emitted++;
    }
    elementsRead += emitted;
    progress.read(elementsRead, bytesRead());
    return result;
  }

  /** Bytes read so far (see the progress fields), {@link SourceProgress#UNKNOWN} without sizes. */
  private long bytesRead() {
    if (estimatedBytes < 0) {
      return SourceProgress.UNKNOWN;
    }
    long bytes = finishedSplitBytes;
    if (reader != null) {
      Double fraction = reader.getFractionConsumed();
      if (fraction != null && fraction > 0) {
        bytes += (long) (Math.min(1.0, fraction) * splitBytes[current]);
      }
    }
    return bytes;
  }

  /**
   * Opens the split's reader and skips the elements already emitted.
   *
   * @return whether the reader has a current element to emit next
   */
  private boolean openAtPosition(SplitPosition<T> position) throws Exception {
    reader = position.split.createReader(options);
    boolean available = reader.start();
    for (long skipped = 0; skipped < position.emitted; skipped++) {
      if (!available) {
        throw new IllegalStateException(
            "Cannot resume reading "
                + position.split
                + ": it yielded "
                + skipped
                + " elements, but "
                + position.emitted
                + " had been emitted before the checkpoint. A bounded read resumes by re-reading"
                + " its split and skipping what was emitted, so the source's reader must return"
                + " the same elements in the same order every time; fix the source or start"
                + " without --restoreFrom.");
      }
      available = reader.advance();
    }
    return available;
  }

  @Override
  void writePosition(OperatorSnapshot snapshot) throws Exception {
    SnapshotWriter out = new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    out.writeInt(mySplits.size() - current);
    for (SplitPosition<T> position : mySplits.subList(current, mySplits.size())) {
      out.writeSerialized(position.split);
      out.writeLong(position.emitted);
    }
    out.writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
  }

  @SuppressWarnings("unchecked")
  private void readPositions(Path file, List<SplitPosition<T>> positions) throws Exception {
    SnapshotReader in = SnapshotReader.open(file, SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    int splits = in.readCount("split count", 1);
    for (int s = 0; s < splits; s++) {
      BoundedSource<T> split = in.readSerialized(BoundedSource.class, "split " + s);
      long emitted = in.readLong("elements emitted from split " + s);
      if (emitted < 0) {
        throw in.corrupt("split " + s + " has " + emitted + " elements emitted", null);
      }
      positions.add(new SplitPosition<>(split, emitted));
    }
    in.expectEnd();
  }

  @Override
  public long currentWatermark() {
    return done ? Long.MAX_VALUE : Long.MIN_VALUE;
  }

  @Override
  public void close() throws Exception {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
