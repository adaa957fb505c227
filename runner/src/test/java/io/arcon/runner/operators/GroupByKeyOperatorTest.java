package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.metrics.OperatorMetrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupByKeyOperatorTest {
  @TempDir Path directory;

  /**
   * Elements arrive as the runtime delivers them from a keyed edge: the key's bytes (the key
   * coder's encoding, as the edge computed them) first, then the element without its wrapper.
   */
  @Test
  void groupsByTheKeyTheRuntimeSetBeforeEachElement() throws Exception {
    GroupByKeyOperator<String, Integer, Iterable<Integer>> op =
        new GroupByKeyOperator<>(
            new GroupByKeyOperator.Spec<>(
                "Group",
                PipelineOptionsFactory.create(),
                StringUtf8Coder.of(),
                WindowingStrategy.globalDefault(),
                SystemReduceFn.<String, Integer, BoundedWindow>buffering(VarIntCoder.of()),
                "heap",
                new OperatorMetrics(new MetricsContainerStepMap(), "Group")));
    TestOperatorContext context = new TestOperatorContext(directory);
    op.open(context);
    try {
      op.startBundle();
      String[] keys = {"a", "b", "a", "c", "b", "a"};
      for (int i = 0; i < keys.length; i++) {
        op.setCurrentKey(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), keys[i]));
        op.processElement(0, WindowedValues.valueInGlobalWindow(KV.of(keys[i], i)));
      }
      op.advanceWatermark(Long.MAX_VALUE);
      op.finishBundle();
    } finally {
      op.close();
    }

    Map<String, List<Integer>> groups = new TreeMap<>();
    for (Object element : context.emitted) {
      @SuppressWarnings("unchecked")
      KV<String, Iterable<Integer>> kv =
          ((WindowedValue<KV<String, Iterable<Integer>>>) element).getValue();
      List<Integer> values = new ArrayList<>();
      kv.getValue().forEach(values::add);
      values.sort(null);
      groups.put(kv.getKey(), values);
    }
    assertEquals(Map.of("a", List.of(0, 2, 5), "b", List.of(1, 4), "c", List.of(3)), groups);
    assertEquals(3, context.emitted.size(), "one pane per key");
  }
}
