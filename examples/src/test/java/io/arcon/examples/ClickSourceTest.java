package io.arcon.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.beam.sdk.io.UnboundedSource.UnboundedReader;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

class ClickSourceTest {

  private static final PipelineOptions OPTIONS = PipelineOptionsFactory.create();
  private static final ClickSpec SPEC =
      new ClickSpec(7, Duration.millis(100), 10, Duration.standardSeconds(3));

  @Test
  void aShardResumesFromItsCheckpointWithItsNextClick() throws IOException {
    List<ClickSource> shards = new ClickSource(SPEC, 100, 0).split(3, OPTIONS);
    assertEquals(3, shards.size());
    ClickSource second = shards.get(1);
    UnboundedReader<KV<String, Long>> reader = second.createReader(OPTIONS, null);
    assertTrue(reader.start());
    assertTrue(reader.advance());
    assertEquals(SPEC.click(4), reader.getCurrent(), "shard 1 of 3 emits clicks 1, 4, 7, ...");
    IndexedEventSource.Checkpoint checkpoint =
        CoderUtils.clone(
            second.getCheckpointMarkCoder(),
            (IndexedEventSource.Checkpoint) reader.getCheckpointMark());
    UnboundedReader<KV<String, Long>> resumed = second.createReader(OPTIONS, checkpoint);
    long expected = 7;
    for (boolean more = resumed.start(); more; more = resumed.advance()) {
      assertEquals(SPEC.click(expected), resumed.getCurrent(), "click " + expected);
      assertEquals(SPEC.eventTime(expected), resumed.getCurrentTimestamp());
      expected += 3;
    }
    assertEquals(100, expected, "the last click of shard 1 is 97");
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, resumed.getWatermark());
  }

  @Test
  void aRateHoldsBackTheClicksItDoesNotAllowYet() throws IOException {
    // One click per ten seconds: the first is allowed at once, the second not for ten seconds.
    UnboundedReader<KV<String, Long>> reader =
        new ClickSource(SPEC, 1_000, 0.1).createReader(OPTIONS, null);
    assertTrue(reader.start());
    assertFalse(reader.advance(), "the second click came before the rate allowed it");
    assertEquals(SPEC.click(0), reader.getCurrent());
    assertTrue(reader.getWatermark().isBefore(BoundedWindow.TIMESTAMP_MAX_VALUE));
  }
}
