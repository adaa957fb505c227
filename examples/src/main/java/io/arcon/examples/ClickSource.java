package io.arcon.examples;

import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * An unbounded source of {@link ClickSpec} clicks with event timestamps, throttled to a wall-clock
 * rate and ending after {@code maxEvents} clicks (see {@link IndexedEventSource}).
 */
public final class ClickSource extends IndexedEventSource<ClickSource> {

  private static final long serialVersionUID = 1L;

  private final ClickSpec spec;
  private final double eventsPerSecond;

  /**
   * @param eventsPerSecond total rate over all shards; 0 or less means as fast as possible
   */
  public ClickSource(ClickSpec spec, long maxEvents, double eventsPerSecond) {
    this(spec, maxEvents, eventsPerSecond, 0, 1);
  }

  private ClickSource(
      ClickSpec spec, long maxEvents, double eventsPerSecond, int shard, int shards) {
    super(maxEvents, shard, shards);
    this.spec = spec;
    this.eventsPerSecond = eventsPerSecond;
  }

  @Override
  protected ClickSource shard(int shard, int shards) {
    return new ClickSource(spec, maxEvents(), eventsPerSecond, shard, shards);
  }

  @Override
  protected KV<String, Long> event(long index) {
    return spec.click(index);
  }

  @Override
  protected Instant eventTime(long index) {
    return spec.eventTime(index);
  }

  @Override
  protected Instant watermarkBefore(long index) {
    return spec.watermarkBefore(index);
  }

  /**
   * Throttles by the rate: a shard's click {@code k} (from 0) is due {@code k / rate} after start.
   */
  @Override
  protected Pace startPace(long firstIndex) {
    if (eventsPerSecond <= 0) {
      return (index, emitted) -> true;
    }
    long startNanos = System.nanoTime();
    double perShard = eventsPerSecond / shards();
    return (index, emitted) -> {
      double elapsedSeconds = (System.nanoTime() - startNanos) / 1e9;
      return emitted <= elapsedSeconds * perShard;
    };
  }
}
