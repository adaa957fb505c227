package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

class PipelineSmokeTest {

  static Pipeline pipeline() {
    return TestPipelines.create(TestArconRunner.class);
  }

  @Test
  void mapAndCount() {
    Pipeline p = pipeline();
    List<Integer> in = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      in.add(i);
    }
    PCollection<KV<Integer, Long>> counts =
        p.apply(Create.of(in))
            .apply(MapElements.into(TypeDescriptors.integers()).via(x -> x % 3))
            .apply(Count.perElement());
    PAssert.that(counts).containsInAnyOrder(KV.of(0, 334L), KV.of(1, 333L), KV.of(2, 333L));
    PipelineResult r = p.run();
    assertEquals(PipelineResult.State.DONE, r.waitUntilFinish());
  }

  @Test
  void groupByKeyAndSideInput() {
    Pipeline p = pipeline();
    PCollection<KV<String, Integer>> kvs =
        p.apply(Create.of(KV.of("a", 1), KV.of("a", 2), KV.of("b", 3)));
    PCollectionView<Integer> total =
        kvs.apply(MapElements.into(TypeDescriptors.integers()).via(KV::getValue))
            .apply(Sum.integersGlobally())
            .apply(View.asSingleton());
    PCollection<KV<String, Iterable<Integer>>> grouped = kvs.apply(GroupByKey.create());
    PCollection<String> withTotal =
        grouped.apply(
            org.apache.beam.sdk.transforms.ParDo.of(new SumWithTotal(total)).withSideInputs(total));
    PAssert.that(withTotal).containsInAnyOrder("a=3/6", "b=3/6");
    p.run().waitUntilFinish();
  }

  static final class SumWithTotal
      extends org.apache.beam.sdk.transforms.DoFn<KV<String, Iterable<Integer>>, String> {
    private final PCollectionView<Integer> total;

    SumWithTotal(PCollectionView<Integer> total) {
      this.total = total;
    }

    @ProcessElement
    public void process(ProcessContext c) {
      int sum = 0;
      for (int v : c.element().getValue()) {
        sum += v;
      }
      c.output(c.element().getKey() + "=" + sum + "/" + c.sideInput(total));
    }
  }
}
