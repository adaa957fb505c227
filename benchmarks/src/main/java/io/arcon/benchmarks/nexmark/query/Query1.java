package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Q1, currency conversion: every bid with its price turned from dollars into euros. */
public final class Query1 implements NexmarkQuery {

  @Override
  public String description() {
    return "currency conversion: every bid, price in euros";
  }

  /** The converted price, in whole cents (rounded down). */
  public static long toEuroCents(long dollarCents) {
    return dollarCents * QueryConfig.EURO_CENTS_PER_100_DOLLAR_CENTS / 100;
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return BeamEvents.bids(events)
        .apply(
            "ToEuros",
            MapElements.into(TypeDescriptor.of(Bid.class))
                .via((Bid b) -> b.withPrice(toEuroCents(b.price()))));
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .map(b -> b.withPrice(toEuroCents(b.price())))
        .returns(TypeInformation.of(Bid.class))
        .name("ToEuros");
  }
}
