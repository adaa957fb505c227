package io.arcon.runner.translation;

import static io.arcon.runner.translation.TranslationTestPipelines.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import java.util.List;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.WindowedValues;
import org.junit.jupiter.api.Test;

class TranslationContextTest {

  @Test
  void bothKindsOfKeyedEdgeRouteAnElementByItsEncodedKey() throws Exception {
    ArconPipelineOptions options = options();
    Pipeline p = Pipeline.create(options);
    PCollection<KV<String, Long>> input = p.apply("Input", Create.of(KV.of("user-7", 1L)));
    input.apply("Group", GroupByKey.create()); // keyed edge from a PCollection
    input.apply("CountPerKey", Count.perKey()); // keyed edge from the partial combine's output
    List<Edge> keyed =
        PipelineTranslator.translate(p, options, new MetricsContainerStepMap())
            .graph()
            .edges()
            .stream()
            .filter(e -> e.kind() == EdgeKind.KEYED)
            .toList();

    assertEquals(
        List.of("Group", "CountPerKey/MergeAccumulators"),
        keyed.stream().map(e -> e.target().name()).toList());
    byte[] expected = CoderUtils.encodeToByteArray(StringUtf8Coder.of(), "user-7");
    for (Edge edge : keyed) {
      assertArrayEquals(
          expected,
          edge.keyExtractor().keyBytes(WindowedValues.valueInGlobalWindow(KV.of("user-7", 42L))),
          edge.target().name());
    }
  }
}
