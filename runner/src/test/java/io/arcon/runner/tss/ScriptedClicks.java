package io.arcon.runner.tss;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * An unbounded source that plays a script: events (key, value, timestamp), watermark steps and
 * gates. After each watermark step the reader ends its poll, so the watermark reaches downstream
 * before any later event (a later event behind it is then really late). At a gate it emits nothing
 * until the test opens the gate. Scripts live in a static registry: the source is serializable and
 * runs in the test's JVM.
 */
final class ScriptedClicks extends UnboundedSource<KV<String, Long>, ScriptedClicks.NoCheckpoint> {

  /** One step of a script. */
  sealed interface Step permits Event, WatermarkStep, Gate {}

  record Event(String key, long value, long timestampMillis) implements Step {}

  record WatermarkStep(long watermarkMillis) implements Step {}

  /** Holds the stream until {@code open} is opened; counts {@code reached} down on arrival. */
  record Gate(CountDownLatch open, CountDownLatch reached) implements Step {}

  private static final Map<String, List<Step>> SCRIPTS = new ConcurrentHashMap<>();

  private final String scriptId;

  ScriptedClicks(String scriptId, List<Step> steps) {
    this.scriptId = scriptId;
    SCRIPTS.put(scriptId, new ArrayList<>(steps));
  }

  @Override
  public List<ScriptedClicks> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this);
  }

  @Override
  public UnboundedReader<KV<String, Long>> createReader(
      PipelineOptions options, NoCheckpoint checkpointMark) {
    return new Reader(SCRIPTS.get(scriptId));
  }

  @Override
  public Coder<NoCheckpoint> getCheckpointMarkCoder() {
    return SerializableCoder.of(NoCheckpoint.class);
  }

  @Override
  public Coder<KV<String, Long>> getOutputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
  }

  /** The script is replayed from the start on restart; no checkpoint state. */
  static final class NoCheckpoint implements UnboundedSource.CheckpointMark, Serializable {
    @Override
    public void finalizeCheckpoint() {}
  }

  private final class Reader extends UnboundedReader<KV<String, Long>> {
    private final List<Step> steps;
    private int position;
    private Event current;
    private Instant watermark = BoundedWindow.TIMESTAMP_MIN_VALUE;
    private boolean pauseAfterWatermark;

    Reader(List<Step> steps) {
      this.steps = steps;
    }

    @Override
    public boolean start() {
      return advance();
    }

    @Override
    public boolean advance() {
      current = null;
      if (pauseAfterWatermark) {
        pauseAfterWatermark = false;
        return false;
      }
      while (position < steps.size()) {
        Step step = steps.get(position);
        if (step instanceof Gate gate) {
          gate.reached().countDown();
          if (gate.open().getCount() > 0) {
            return false;
          }
          position++;
        } else if (step instanceof WatermarkStep w) {
          position++;
          watermark = new Instant(w.watermarkMillis());
          pauseAfterWatermark = true;
          return false;
        } else {
          position++;
          current = (Event) step;
          return true;
        }
      }
      watermark = BoundedWindow.TIMESTAMP_MAX_VALUE;
      return false;
    }

    @Override
    public KV<String, Long> getCurrent() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return KV.of(current.key(), current.value());
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return new Instant(current.timestampMillis());
    }

    @Override
    public Instant getWatermark() {
      return watermark;
    }

    @Override
    public CheckpointMark getCheckpointMark() {
      return new NoCheckpoint();
    }

    @Override
    public UnboundedSource<KV<String, Long>, ?> getCurrentSource() {
      return ScriptedClicks.this;
    }

    @Override
    public void close() throws IOException {}
  }
}
