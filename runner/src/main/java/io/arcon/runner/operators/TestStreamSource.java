package io.arcon.runner.operators;

import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import java.util.List;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * Replays a {@link TestStream}: elements, watermark advances and processing-time advances, each
 * only after the whole job is quiescent (every earlier event fully processed), which is the
 * ordering TestStream promises. Processing time is the job's manual clock; advancing it wakes every
 * node so due processing-time timers fire. Runs on instance 0 only.
 */
public final class TestStreamSource<T> implements SourceOperator {
  private final List<TestStream.Event<T>> events;
  private final ManualClock clock;
  private final JobActivity activity;
  private OperatorContext context;
  private int next;
  private long watermark = Long.MIN_VALUE;
  private boolean active;

  public TestStreamSource(
      List<TestStream.Event<T>> events, ManualClock clock, JobActivity activity) {
    this.events = events;
    this.clock = clock;
    this.activity = activity;
  }

  @Override
  public void open(OperatorContext ctx) {
    this.context = ctx;
    this.active = ctx.instanceIndex() == 0;
    if (!active) {
      watermark = Long.MAX_VALUE;
    }
  }

  @Override
  public PollResult poll(int maxElements) {
    if (!active || next >= events.size()) {
      watermark = Long.MAX_VALUE;
      return PollResult.DONE;
    }
    if (!activity.isQuiescent()) {
      return PollResult.IDLE;
    }
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

  @Override
  public long currentWatermark() {
    return watermark;
  }
}
