package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.TestArconRunner;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

/**
 * A stateful DoFn with a side input that is ready only at the end of its input (a global sum): the
 * main input waits for it, and each waiting element must then be processed under its own key, so
 * every key counts only its own elements.
 */
class StatefulSideInputPipelineTest {

  /** Per key: how many elements it has seen so far, and the side input's total. */
  static final class CountWithTotal extends DoFn<KV<String, Integer>, String> {
    private final PCollectionView<Integer> total;

    @StateId("count")
    private final StateSpec<ValueState<Integer>> countSpec = StateSpecs.value();

    CountWithTotal(PCollectionView<Integer> total) {
      this.total = total;
    }

    @ProcessElement
    public void process(ProcessContext c, @StateId("count") ValueState<Integer> count) {
      int seen = (count.read() == null ? 0 : count.read()) + 1;
      count.write(seen);
      c.output(c.element().getKey() + "#" + seen + "/" + c.sideInput(total));
    }
  }

  @Test
  void waitingElementsAreProcessedUnderTheirOwnKeys() {
    Pipeline p =
        Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=TestArconRunner").create());
    p.getOptions().setRunner(TestArconRunner.class);
    List<KV<String, Integer>> in = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    String[] keys = {"a", "b", "c", "d", "e", "f", "g", "h"};
    int total = 0;
    for (int i = 0; i < 400; i++) {
      in.add(KV.of(keys[i % keys.length], 1));
      total++;
    }
    for (String key : keys) {
      for (int n = 1; n <= 400 / keys.length; n++) {
        expected.add(key + "#" + n + "/" + total);
      }
    }
    PCollection<KV<String, Integer>> kvs = p.apply(Create.of(in));
    PCollectionView<Integer> sum =
        kvs.apply(MapElements.into(TypeDescriptors.integers()).via(KV::getValue))
            .apply(Sum.integersGlobally())
            .apply(View.asSingleton());
    PCollection<String> out = kvs.apply(ParDo.of(new CountWithTotal(sum)).withSideInputs(sum));
    PAssert.that(out).containsInAnyOrder(expected);
    assertEquals(PipelineResult.State.DONE, p.run().waitUntilFinish());
  }
}
