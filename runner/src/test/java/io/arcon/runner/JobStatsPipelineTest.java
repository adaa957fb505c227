package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.observe.JobStats;
import io.arcon.runtime.observe.NodeStats;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The live figures ({@link JobStats}) of real pipelines, read after they ended. */
class JobStatsPipelineTest {

  static final class CountPerKey extends DoFn<KV<Long, Long>, Long> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> count = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(@StateId("count") ValueState<Long> count) {
      Long c = count.read();
      count.write(c == null ? 1 : c + 1);
    }
  }

  /** Slower than the source by far, so the source must wait for credits. */
  static final class Slow extends DoFn<Long, Long> {
    @ProcessElement
    public void process(@Element Long e) throws InterruptedException {
      if (e % 100 == 0) {
        Thread.sleep(1);
      }
    }
  }

  private static Pipeline pipeline(String engine) {
    Pipeline p = TestPipelines.create(TestArconRunner.class);
    p.getOptions().as(ArconPipelineOptions.class).setStateBackend(engine);
    return p;
  }

  private static Map<String, List<NodeStats.Sample>> byChain(JobStats stats) {
    Map<Integer, String> names =
        stats.graph().vertices().stream().collect(Collectors.toMap(Vertex::id, Vertex::name));
    return stats.sampleNodes().stream()
        .collect(Collectors.groupingBy(s -> names.get(s.vertexId())));
  }

  private static long sum(
      List<NodeStats.Sample> samples, java.util.function.ToLongFunction<NodeStats.Sample> f) {
    return samples.stream().mapToLong(f).sum();
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb"})
  void everyElementIsCountedOutOfTheSourceAndIntoTheStatefulChain(String engine) {
    long n = 20_000;
    Pipeline p = pipeline(engine);
    p.apply(GenerateSequence.from(0).to(n))
        .apply(
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via(x -> KV.of(x % 100, x)))
        .apply("Count", ParDo.of(new CountPerKey()));
    ArconPipelineResult result = (ArconPipelineResult) p.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    JobStats stats = result.observedJob().stats();
    assertEquals(1, stats.attempts());

    List<NodeStats.Sample> all = stats.sampleNodes();
    // Every element crossed exactly one edge (source chain -> keyed stateful chain).
    assertEquals(n, sum(all, NodeStats.Sample::recordsOut));
    assertEquals(n, sum(all, NodeStats.Sample::recordsIn));
    for (NodeStats.Sample s : all) {
      assertEquals(NodeStats.Status.FINISHED, s.status(), s.toString());
      assertEquals(Long.MAX_VALUE, s.outputWatermark(), s.toString());
    }
    List<NodeStats.Sample> stateful =
        all.stream().filter(s -> s.recordsIn() > 0).collect(Collectors.toList());
    assertEquals(2, stateful.size(), "both instances of the keyed chain received elements");
    for (NodeStats.Sample s : stateful) {
      assertEquals(engine, s.stateEngines(), s.toString());
      // Measured once more at the end, after the global window's state was cleared: heap holds
      // nothing then, rocksdb still has its files.
      assertTrue(s.stateBytes() >= 0, s.toString());
      assertEquals(Long.MAX_VALUE, s.inputWatermark(), s.toString());
    }
    for (NodeStats.Sample s : all) {
      if (s.recordsIn() == 0) {
        assertEquals("", s.stateEngines(), "the source chain keeps no state: " + s);
        assertEquals(-1, s.stateBytes(), s.toString());
      }
    }
  }

  @Test
  void aSourceFasterThanItsReceiverIsBackPressured() {
    Pipeline p = pipeline("heap");
    p.apply(GenerateSequence.from(0).to(40_000))
        // A shuffle: the slow step runs in a chain of its own, behind credits.
        .apply(Reshuffle.viaRandomKey())
        .apply("Slow", ParDo.of(new Slow()));
    ArconPipelineResult result = (ArconPipelineResult) p.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    Map<String, List<NodeStats.Sample>> chains = byChain(result.observedJob().stats());
    long sourceBlocked = 0;
    long receiverBlocked = 0;
    for (Map.Entry<String, List<NodeStats.Sample>> chain : chains.entrySet()) {
      long blocked = sum(chain.getValue(), NodeStats.Sample::blockedNanos);
      if (sum(chain.getValue(), NodeStats.Sample::recordsIn) == 0) {
        sourceBlocked += blocked;
      } else {
        receiverBlocked += blocked;
      }
    }
    assertTrue(sourceBlocked > 0, "the source waited for credits: " + chains);
    assertEquals(0, receiverBlocked, "the last chain sends nothing, so never waits: " + chains);
  }
}
