package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Q0, pass-through: every event unchanged; measures the source, one step and the sink. */
public final class Query0 implements NexmarkQuery {

  @Override
  public String description() {
    return "pass-through: every event";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return events.apply("PassThrough", ParDo.of(new PassThrough()));
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return events.map(e -> e).returns(TypeInformation.of(Event.class)).name("PassThrough");
  }

  private static final class PassThrough extends DoFn<Event, Event> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<Event> out) {
      out.output(e);
    }
  }
}
