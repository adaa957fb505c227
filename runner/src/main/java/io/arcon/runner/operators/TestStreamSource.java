package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a {@link TestStream}: elements, watermark advances and processing-time advances, each
 * only after the whole job is quiescent (every earlier event fully processed), which is the
 * ordering TestStream promises. Processing time is the job's manual clock; advancing it wakes every
 * node so due processing-time timers fire. Runs on instance 0 only.
 *
 * <p>Its snapshot holds the index of the next event, the watermark reached and the manual clock's
 * time: a restored job sets the clock back to that time (the restored timers are due relative to
 * it) and continues with the next event.
 */
public final class TestStreamSource<T> implements SourceOperator {
  private static final Logger LOG = LoggerFactory.getLogger(TestStreamSource.class);

  static final String SNAPSHOT_FILE = "test-stream";
  private static final String SNAPSHOT_KIND = "test-stream";
  private static final int SNAPSHOT_FORMAT = 1;

  private final List<TestStream.Event<T>> events;
  private final ManualClock clock;
  private final JobActivity activity;
  private OperatorContext context;
  private int next;
  private long watermark = Long.MIN_VALUE;
  private boolean active;

  /** Wall-clock millis since which the job has not been quiescent, 0 when it was at last poll. */
  private long waitingSince;

  private boolean warnedStuck;

  public TestStreamSource(
      List<TestStream.Event<T>> events, ManualClock clock, JobActivity activity) {
    this.events = events;
    this.clock = clock;
    this.activity = activity;
  }

  @Override
  public void open(OperatorContext ctx) throws Exception {
    this.context = ctx;
    this.active = ctx.instanceIndex() == 0;
    if (!active) {
      watermark = Long.MAX_VALUE;
    } else if (ctx.restore() != null) {
      // Only instance 0 replays events, whatever the parallelism was.
      resume(ctx.restore().directoryOf(0).resolve(SNAPSHOT_FILE));
    }
  }

  private void resume(Path file) throws Exception {
    SnapshotReader in = SnapshotReader.open(file, SNAPSHOT_KIND, SNAPSHOT_FORMAT);
    int eventCount = in.readInt("event count");
    int nextEvent = in.readInt("next event");
    long restoredWatermark = in.readLong("watermark");
    long clockMillis = in.readLong("processing time");
    in.expectEnd();
    if (eventCount != events.size()) {
      throw new IllegalStateException(
          "The checkpoint in "
              + file
              + " was taken from a TestStream of "
              + eventCount
              + " events, this pipeline's has "
              + events.size()
              + ": restore the pipeline that wrote the checkpoint.");
    }
    if (nextEvent < 0 || nextEvent > eventCount) {
      throw in.corrupt("its next event " + nextEvent + " is not within 0.." + eventCount, null);
    }
    next = nextEvent;
    watermark = restoredWatermark;
    // ManualClock moves by deltas only; a negative one takes it back to the checkpoint's time (the
    // new job's clock started at the wall clock, or a restarted job's moved past the checkpoint).
    clock.set(clockMillis);
  }

  @Override
  public PollResult poll(int maxElements) {
    if (!active || next >= events.size()) {
      watermark = Long.MAX_VALUE;
      return PollResult.DONE;
    }
    if (!activity.isQuiescent()) {
      warnIfStuck();
      return PollResult.IDLE;
    }
    waitingSince = 0;
    TestStream.Event<T> event = events.get(next++);
    if (event instanceof TestStream.ElementEvent<T> elements) {
      for (TimestampedValue<T> tv : elements.getElements()) {
        context
            .output()
            .emit(
                0,
                WindowedValues.of(
                    tv.getValue(), tv.getTimestamp(), GlobalWindow.INSTANCE, PaneInfo.NO_FIRING));
      }
    } else if (event instanceof TestStream.WatermarkEvent<T> wm) {
      watermark = Math.max(watermark, Watermarks.fromInstant(wm.getWatermark()));
    } else if (event instanceof TestStream.ProcessingTimeEvent<T> pt) {
      clock.advance(pt.getProcessingTimeAdvance().getMillis());
      activity.broadcastClockAdvanced();
    }
    // Let the job settle before the next event: IDLE re-polls after a short pause.
    return PollResult.IDLE;
  }

  /**
   * A job that never becomes quiescent again stalls the stream; says how many messages are still
   * counted in flight, once, after 30 s of waiting (a count that never drops is a message lost).
   */
  private void warnIfStuck() {
    long now = System.currentTimeMillis();
    if (waitingSince == 0) {
      waitingSince = now;
    } else if (!warnedStuck && now - waitingSince > 30_000) {
      warnedStuck = true;
      LOG.warn(
          "TestStream has waited {} ms for the job to become quiescent before event {} of {};"
              + " {} messages are still in flight",
          now - waitingSince,
          next,
          events.size(),
          activity.inFlight());
    }
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  @Override
  public void snapshotState(OperatorSnapshot snapshot) throws Exception {
    if (!active) {
      return; // instance 0 alone replays the stream and keeps its position
    }
    new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_FORMAT)
        .writeInt(events.size())
        .writeInt(next)
        .writeLong(watermark)
        .writeLong(clock.nowMillis())
        .writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
  }
}
