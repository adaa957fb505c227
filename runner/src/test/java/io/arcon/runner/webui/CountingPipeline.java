package io.arcon.runner.webui;

import io.arcon.runner.ArconPipelineOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The web UI tests' job: numbers 0..N-1, measured by a DoFn (counter, distribution, gauge), keyed
 * by x % KEYS, grouped (a keyed edge between two chains), and the groups counted.
 */
final class CountingPipeline {
  static final int N = 5_000;
  static final int KEYS = 13;

  /** The transforms the test names; the UI must show each (or its parts, for composites). */
  static final List<String> NAMED_TRANSFORMS =
      List.of("Numbers", "Measure", "Key", "Group", "CountGroups");

  private CountingPipeline() {}

  static final class Measure extends DoFn<Long, Long> {
    private final Counter seen = Metrics.counter("webui", "seen");
    private final Distribution values = Metrics.distribution("webui", "value");
    private final Gauge last = Metrics.gauge("webui", "last");

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) {
      seen.inc();
      values.update(x);
      last.set(x);
      out.output(x);
    }
  }

  static final class CountGroups extends DoFn<KV<Long, Iterable<Long>>, Long> {
    private final Counter groups = Metrics.counter("webui", "groups");
    private final Counter grouped = Metrics.counter("webui", "grouped");

    @ProcessElement
    public void process(@Element KV<Long, Iterable<Long>> group, OutputReceiver<Long> out) {
      groups.inc();
      long size = 0;
      for (Long ignored : group.getValue()) {
        size++;
      }
      grouped.inc(size);
      out.output(group.getKey());
    }
  }

  static Pipeline create(ArconPipelineOptions options) {
    Pipeline p = Pipeline.create(options);
    p.apply("Numbers", GenerateSequence.from(0).to(N))
        .apply("Measure", ParDo.of(new Measure()))
        .apply("Key", WithKeys.of((Long x) -> x % KEYS).withKeyType(TypeDescriptors.longs()))
        .apply("Group", GroupByKey.create())
        .apply("CountGroups", ParDo.of(new CountGroups()));
    return p;
  }

  /** Every transform's full name in the pipeline, composites and their parts. */
  static List<String> transformNames(Pipeline p) {
    List<String> names = new ArrayList<>();
    p.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
            if (!node.isRootNode()) {
              names.add(node.getFullName());
            }
            return CompositeBehavior.ENTER_TRANSFORM;
          }

          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            names.add(node.getFullName());
          }
        });
    return names;
  }
}
