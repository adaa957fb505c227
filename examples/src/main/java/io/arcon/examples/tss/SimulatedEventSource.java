package io.arcon.examples.tss;

import io.arcon.examples.IndexedEventSource;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * An unbounded source of {@link SimulatedEvents}, paced by a simulated clock that runs {@code
 * eventSecondsPerSecond} times faster than the wall clock: event {@code i} is emitted once the
 * clock reaches {@link SimulatedEvents#emittedAt}. The clock starts when a reader starts (at the
 * emission time of its first event) and stands still while no reader runs. Sharding, checkpoints
 * and the end after {@code maxEvents} events: {@link IndexedEventSource}.
 */
public final class SimulatedEventSource extends IndexedEventSource<SimulatedEventSource> {

  private static final long serialVersionUID = 1L;

  private final SimulatedEvents events;
  private final double eventSecondsPerSecond;

  /**
   * @param maxEvents events before the source ends, or {@link #UNBOUNDED}
   * @param eventSecondsPerSecond speed of the simulated clock; 0 emits as fast as possible
   */
  public SimulatedEventSource(
      SimulatedEvents events, long maxEvents, double eventSecondsPerSecond) {
    this(events, maxEvents, eventSecondsPerSecond, 0, 1);
  }

  private SimulatedEventSource(
      SimulatedEvents events, long maxEvents, double eventSecondsPerSecond, int shard, int shards) {
    super(maxEvents, shard, shards);
    if (!(eventSecondsPerSecond >= 0) || Double.isInfinite(eventSecondsPerSecond)) {
      throw new IllegalArgumentException(
          "the simulated clock's speed must be a finite number of event seconds per second >= 0"
              + " (0 = as fast as possible), got "
              + eventSecondsPerSecond);
    }
    this.events = events;
    this.eventSecondsPerSecond = eventSecondsPerSecond;
  }

  @Override
  protected SimulatedEventSource shard(int shard, int shards) {
    return new SimulatedEventSource(events, maxEvents(), eventSecondsPerSecond, shard, shards);
  }

  @Override
  protected KV<String, Long> event(long index) {
    return events.event(index);
  }

  @Override
  protected Instant eventTime(long index) {
    return events.eventTime(index);
  }

  @Override
  protected Instant watermarkBefore(long index) {
    return events.watermarkBefore(index);
  }

  /** Event {@code i} is due once the simulated clock has reached its emission. */
  @Override
  protected Pace startPace(long firstIndex) {
    if (eventSecondsPerSecond == 0) {
      return (index, emitted) -> true;
    }
    long clockStartNanos = System.nanoTime();
    long clockStartEventMillis = events.emittedAt(firstIndex).getMillis();
    return (index, emitted) -> {
      double wallMillis = (System.nanoTime() - clockStartNanos) / 1e6;
      double simulatedMillis = wallMillis * eventSecondsPerSecond;
      return events.emittedAt(index).getMillis() - clockStartEventMillis <= simulatedMillis;
    };
  }
}
