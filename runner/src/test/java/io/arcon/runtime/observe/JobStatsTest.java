package io.arcon.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.dispatch.NodeThreadFigures;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JobStatsTest {

  private static final class Noop implements Operator {
    @Override
    public void open(OperatorContext context) {}

    @Override
    public void processElement(int port, Object element) {}
  }

  private static JobGraph graph() {
    JobGraph g = new JobGraph();
    Vertex a = g.addVertex("a", 2);
    a.addOperator("A", Noop::new);
    Vertex b = g.addVertex("b", 3);
    b.addOperator("B", Noop::new);
    return g;
  }

  @Test
  void oneNodeStatsPerInstanceSampledInGraphOrder() {
    JobGraph g = graph();
    JobStats stats = new JobStats("job", g);
    stats.node(g.vertices().get(1).id(), 2).recordsIn(7);
    List<NodeStats.Sample> samples = stats.sampleNodes();
    assertEquals(5, samples.size());
    assertEquals(g.vertices().get(0).id(), samples.get(0).vertexId());
    assertEquals(1, samples.get(1).instance());
    NodeStats.Sample last = samples.get(4);
    assertEquals(g.vertices().get(1).id(), last.vertexId());
    assertEquals(2, last.instance());
    assertEquals(7, last.recordsIn());
  }

  @Test
  void anUnknownInstanceIsRefused() {
    JobGraph g = graph();
    JobStats stats = new JobStats("job", g);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> stats.node(g.vertices().get(0).id(), 2));
    assertTrue(e.getMessage().contains("No node instance 2"), e.getMessage());
  }

  @Test
  void attemptsAndEpochsAccumulate() {
    JobStats stats = new JobStats("job", graph());
    assertEquals(0, stats.attempts());
    stats.attemptStarted(0);
    stats.attemptStarted(1);
    assertEquals(2, stats.attempts());

    stats.epochListener().epochCompleted(1, 30, 1000);
    stats.epochListener().epochGivenUp(2, "timed out");
    stats.epochListener().epochCompleted(3, 40, 2000);
    JobStats.EpochSample epochs = stats.sampleEpochs();
    assertEquals(2, epochs.completed());
    assertEquals(1, epochs.givenUp());
    assertEquals(3, epochs.lastCompleted());
    assertEquals(40, epochs.lastDurationMillis());
    assertEquals(2000, epochs.lastBytes());
    assertTrue(epochs.lastCompletedAtMillis() > 0);
    assertEquals("epoch 2: timed out", epochs.lastGivenUpReason());
  }

  private final JobStats threadStats = new JobStats("job", new JobGraph());

  @Test
  void sharedNodeThreadsHaveNoFigures() {
    assertEquals(Optional.empty(), threadStats.sampleNodeThreads());
    threadStats.nodeThreadsStarted(Optional::empty);
    assertEquals(Optional.empty(), threadStats.sampleNodeThreads());
  }

  @Test
  void aRestartedJobsCountsAddUpAndItsSparesAreThoseRunningNow() {
    AtomicReference<NodeThreadFigures> first = new AtomicReference<>();
    threadStats.nodeThreadsStarted(() -> Optional.ofNullable(first.get()));
    assertEquals(Optional.empty(), threadStats.sampleNodeThreads(), "not built yet");
    first.set(new NodeThreadFigures(2, 5, 1, 1));
    assertEquals(Optional.of(new NodeThreadFigures(2, 5, 1, 1)), threadStats.sampleNodeThreads());
    first.set(new NodeThreadFigures(2, 7, 2, 0));

    AtomicReference<NodeThreadFigures> second = new AtomicReference<>();
    threadStats.nodeThreadsStarted(() -> Optional.ofNullable(second.get()));
    assertEquals(
        Optional.of(new NodeThreadFigures(2, 7, 2, 0)),
        threadStats.sampleNodeThreads(),
        "the first attempt's counts before the second's threads exist");
    second.set(new NodeThreadFigures(2, 3, 1, 1));
    assertEquals(Optional.of(new NodeThreadFigures(2, 10, 3, 1)), threadStats.sampleNodeThreads());
  }
}
