package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.tss.CounterEvents;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * A stream enriched from a lookup table (issue 15, item 2: side-input joins against the same join
 * on keyed state). The main input is {@link CounterEvents}: {@code (key, 1)} about one event-time
 * millisecond apart with up to 200 ms of disorder, a watermark 500 ms behind, key {@code (31 i + 7)
 * % keys}. Each element is joined with its key's row of a table and leaves as {@code (key, 1 +
 * weight)}; the sink counts the results and adds them up, and the total, computed here from the
 * same generators ({@link #expectedSum}), verifies every run.
 *
 * <p>Two tables, each joined two ways:
 *
 * <ul>
 *   <li>{@link Table#GLOBAL}: one bounded table of {@code keys} rows in the global window.
 *   <li>{@link Table#WINDOWED}: a table republished every {@code windowMillis} of event time
 *       ({@link DimensionRows}: every key's row per window, each window's rows different), the main
 *       input in the same fixed windows, so each element takes its window's row.
 * </ul>
 *
 * <p>{@link Join#SIDE_INPUT} reads the table as a {@code View.asMap()} side input of a ParDo over
 * the main input. {@link Join#KEYED_STATE} is what a user writes without side inputs: both inputs
 * tagged and flattened into a stateful DoFn keyed by the table's key, which keeps the key's row in
 * a {@code ValueState} and the elements that came before it in a {@code BagState}.
 */
final class SideInputJoinPipeline {
  static final String NAMESPACE = SideInputJoinPipeline.class.getName();
  static final String RESULTS = "results";
  static final String SUM = "sum";

  /** The main input's event times start here, so its 200 ms of disorder stays in window 0. */
  static final long MAIN_BASE_MILLIS = 200;

  static final int MAIN_MAX_DISORDER_MILLIS = 200;
  static final int MAIN_WATERMARK_LAG_MILLIS = 500;

  /** Which table the main input is joined with. */
  enum Table {
    GLOBAL,
    WINDOWED
  }

  /** How the join is done. */
  enum Join {
    SIDE_INPUT,
    KEYED_STATE
  }

  private SideInputJoinPipeline() {}

  static CounterEvents.Shape mainShape(long elements, long keys) {
    return new CounterEvents.Shape(
        elements,
        Math.toIntExact(keys),
        MAIN_BASE_MILLIS,
        MAIN_MAX_DISORDER_MILLIS,
        MAIN_WATERMARK_LAG_MILLIS,
        0);
  }

  /** The windowed table's rows: every window the main input reaches. */
  static DimensionRows.Shape tableShape(long elements, long keys, long windowMillis) {
    long lastMainMillis = MAIN_BASE_MILLIS + elements - 1;
    return new DimensionRows.Shape(lastMainMillis / windowMillis + 1, keys, windowMillis);
  }

  static void build(
      Pipeline pipeline, long elements, long keys, long windowMillis, Table table, Join join) {
    if (elements <= 0 || keys <= 0) {
      throw new IllegalArgumentException(
          "--elements and --keys must be positive, got " + elements + " and " + keys);
    }
    PCollection<KV<Long, Long>> main =
        pipeline.apply("Events", Read.from(CounterEvents.of(mainShape(elements, keys))));
    PCollection<KV<Long, Long>> rows;
    if (table == Table.GLOBAL) {
      rows =
          pipeline
              .apply("TableKeys", GenerateSequence.from(0).to(keys))
              .apply(
                  "TableRows",
                  MapElements.into(
                          TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                      .via((Long k) -> KV.of(k, DimensionRows.weightOf(k, 0))));
    } else {
      Window<KV<Long, Long>> windows = Window.into(FixedWindows.of(Duration.millis(windowMillis)));
      main = main.apply("EventWindows", windows);
      rows =
          pipeline
              .apply(
                  "TableRows",
                  Read.from(DimensionRows.of(tableShape(elements, keys, windowMillis))))
              .apply("TableWindows", windows);
    }
    PCollection<KV<Long, Long>> joined =
        switch (join) {
          case SIDE_INPUT -> {
            PCollectionView<Map<Long, Long>> view = rows.apply("TableView", View.asMap());
            yield main.apply(
                "JoinWithSideInput", ParDo.of(new JoinWithSideInput(view)).withSideInputs(view));
          }
          case KEYED_STATE -> {
            KvCoder<Long, KV<Long, Long>> tagged =
                KvCoder.of(VarLongCoder.of(), KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));
            PCollection<KV<Long, KV<Long, Long>>> taggedRows =
                rows.apply("TagRows", ParDo.of(new Tag(ROW))).setCoder(tagged);
            PCollection<KV<Long, KV<Long, Long>>> taggedEvents =
                main.apply("TagEvents", ParDo.of(new Tag(EVENT))).setCoder(tagged);
            yield PCollectionList.of(taggedRows)
                .and(taggedEvents)
                .apply("RowsAndEvents", Flatten.pCollections())
                .apply("JoinOnKeyedState", ParDo.of(new JoinOnKeyedState()));
          }
        };
    joined.apply("Sink", ParDo.of(new CountAndSumSink(NAMESPACE, RESULTS, SUM)));
  }

  /**
   * What the sink's sum must be: every element's 1 plus its key's weight in the table it is joined
   * with (window 0 for the global table).
   */
  static long expectedSum(long elements, long keys, long windowMillis, Table table) {
    CounterEvents.Shape shape = mainShape(elements, keys);
    long sum = 0;
    for (long i = 0; i < elements; i++) {
      long window = table == Table.GLOBAL ? 0 : shape.timestampOf(i) / windowMillis;
      sum += 1 + DimensionRows.weightOf(shape.keyOf(i), window);
    }
    return sum;
  }

  static final long ROW = 0;
  static final long EVENT = 1;

  /** Each element of one input as {@code (key, (tag, value))}. */
  static final class Tag extends DoFn<KV<Long, Long>, KV<Long, KV<Long, Long>>> {
    private final long tag;

    Tag(long tag) {
      this.tag = tag;
    }

    @ProcessElement
    public void processElement(
        @Element KV<Long, Long> element, OutputReceiver<KV<Long, KV<Long, Long>>> out) {
      out.output(KV.of(element.getKey(), KV.of(tag, element.getValue())));
    }
  }

  /** Looks each element's key up in the table's map for the element's window. */
  static final class JoinWithSideInput extends DoFn<KV<Long, Long>, KV<Long, Long>> {
    private final PCollectionView<Map<Long, Long>> table;

    JoinWithSideInput(PCollectionView<Map<Long, Long>> table) {
      this.table = table;
    }

    @ProcessElement
    public void processElement(ProcessContext c) {
      KV<Long, Long> event = c.element();
      Long weight = c.sideInput(table).get(event.getKey());
      if (weight == null) {
        throw new IllegalStateException("no table row for key " + event.getKey());
      }
      c.output(KV.of(event.getKey(), event.getValue() + weight));
    }
  }

  /**
   * The join a user writes on keyed state: the key's row in a value state; elements that arrive
   * before it wait in a bag and leave when it comes.
   */
  static final class JoinOnKeyedState extends DoFn<KV<Long, KV<Long, Long>>, KV<Long, Long>> {
    @StateId("row")
    private final StateSpec<ValueState<Long>> rowSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("waiting")
    private final StateSpec<BagState<Long>> waitingSpec = StateSpecs.bag(VarLongCoder.of());

    @ProcessElement
    public void processElement(
        @Element KV<Long, KV<Long, Long>> element,
        @StateId("row") ValueState<Long> row,
        @StateId("waiting") BagState<Long> waiting,
        OutputReceiver<KV<Long, Long>> out) {
      long key = element.getKey();
      long value = element.getValue().getValue();
      if (element.getValue().getKey() == ROW) {
        row.write(value);
        for (Long waited : waiting.read()) {
          out.output(KV.of(key, waited + value));
        }
        waiting.clear();
        return;
      }
      Long weight = row.read();
      if (weight == null) {
        waiting.add(value);
      } else {
        out.output(KV.of(key, value + weight));
      }
    }
  }
}
