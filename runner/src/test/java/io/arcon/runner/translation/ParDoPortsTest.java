package io.arcon.runner.translation;

import static io.arcon.runner.translation.TranslationTestPipelines.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.state.StateBackendSelection;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

class ParDoPortsTest {
  // Ids that sort opposite to the declaration order, so the numbering cannot come from sorting.
  private static final TupleTag<Integer> MAIN = new TupleTag<>("z-main") {};
  private static final TupleTag<String> TEXT = new TupleTag<>("y-text") {};
  private static final TupleTag<Long> WIDE = new TupleTag<>("x-wide") {};

  private final ArconPipelineOptions options = options();
  private final Pipeline p = Pipeline.create(options);
  private final PCollection<Integer> input = p.apply("Input", Create.of(1, 2, 3));
  private final PCollectionView<Integer> side =
      p.apply("SideValues", Create.of(10)).apply("Side", View.asSingleton());
  private final PCollectionTuple outputs =
      input.apply(
          "Split",
          ParDo.of(new Split(side))
              .withOutputTags(MAIN, TupleTagList.of(TEXT).and(WIDE))
              .withSideInputs(side));

  @Test
  void numbersTheMainOutputFirstThenTheAdditionalOnesInDeclarationOrder() {
    TranslationContext ctx =
        new TranslationContext(
            p,
            options,
            new MetricsContainerStepMap(),
            StateBackendSelection.of(options),
            null,
            null);
    ParDoPorts ports = ParDoPorts.of(node("Split"), ctx, MAIN, List.of(TEXT, WIDE), List.of(side));

    assertSame(input, ports.mainInput());
    assertEquals(List.of(side), ports.sideInputs());
    assertEquals(List.of(MAIN, TEXT, WIDE), ports.outputTags());
    assertEquals(Map.of(MAIN, 0, TEXT, 1, WIDE, 2), ports.outputIndexes());
    assertEquals(
        Map.of(MAIN, VarIntCoder.of(), TEXT, StringUtf8Coder.of(), WIDE, VarLongCoder.of()),
        ports.outputCoders());
    assertEquals(
        List.of(
            outputs.get(MAIN).getName(), outputs.get(TEXT).getName(), outputs.get(WIDE).getName()),
        ports.outputNames());
  }

  @Test
  void wiresTheSideInputToPortOneAndEachOutputToItsConsumer() {
    outputs.get(MAIN).apply("UseMain", MapElements.into(TypeDescriptors.integers()).via(i -> i));
    outputs.get(WIDE).apply("UseWide", MapElements.into(TypeDescriptors.longs()).via(l -> l));
    Translation translation =
        PipelineTranslator.translate(p, options, new MetricsContainerStepMap());

    Vertex split = vertex(translation, "Split");
    OperatorNode op = split.operators().get(0);
    assertEquals(3, op.outputCount(), "one output per tag, consumed or not");
    assertEquals(List.of(EdgeKind.FORWARD, EdgeKind.BROADCAST), inputKinds(split));
    assertEquals(List.of(0, 1), split.inputs().stream().map(Edge::targetPort).toList());
    assertEquals(
        "UseMain/Map/ParMultiDo(Anonymous)", consumerOf(split, op, 0), "main output is output 0");
    assertEquals(List.of(), op.chainTargets(1), "the text output has no consumer");
    assertEquals(
        "UseWide/Map/ParMultiDo(Anonymous)", consumerOf(split, op, 2), "wide output is output 2");
  }

  private TransformHierarchy.Node node(String fullName) {
    TransformHierarchy.Node[] found = new TransformHierarchy.Node[1];
    p.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (node.getFullName().equals(fullName)) {
              found[0] = node;
            }
          }
        });
    return found[0];
  }

  private static Vertex vertex(Translation translation, String name) {
    return translation.graph().vertices().stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static List<EdgeKind> inputKinds(Vertex v) {
    List<EdgeKind> kinds = new ArrayList<>();
    for (Edge e : v.inputs()) {
      kinds.add(e.kind());
    }
    return kinds;
  }

  private static String consumerOf(Vertex v, OperatorNode op, int output) {
    List<OperatorNode.ChainTarget> targets = op.chainTargets(output);
    assertEquals(1, targets.size(), Arrays.toString(targets.toArray()));
    return v.operators().get(targets.get(0).operatorIndex()).name();
  }

  /** Emits each element to the main output, as text and widened, plus the side input. */
  private static final class Split extends DoFn<Integer, Integer> {
    private final PCollectionView<Integer> side;

    Split(PCollectionView<Integer> side) {
      this.side = side;
    }

    @ProcessElement
    public void process(ProcessContext c) {
      int value = c.element() + c.sideInput(side);
      c.output(value);
      c.output(TEXT, String.valueOf(value));
      c.output(WIDE, (long) value);
    }
  }
}
