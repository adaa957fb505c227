package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyedElement;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime sets an operator's current key before it delivers a keyed element, for elements that
 * crossed a keyed edge and for elements emitted keyed inside a chain; operators never see the
 * {@link KeyedElement} wrapper.
 */
class KeyedElementDeliveryTest {
  private static final long ELEMENTS = 20_000;

  @TempDir Path stateRoot;

  private static byte[] keyBytes(long key) {
    return ByteBuffer.allocate(8).putLong(key).array();
  }

  /**
   * Checks that every element arrives unwrapped, right after its key was set to {@code keyOf};
   * re-emits it keyed by {@code element % 7} when {@code rekey}.
   */
  static final class KeyChecker implements Operator {
    private final long modulus;
    private final boolean rekey;
    private final AtomicLong received;
    private final List<String> problems;
    private OperatorContext ctx;
    private byte[] currentKey;

    KeyChecker(long modulus, boolean rekey, AtomicLong received, List<String> problems) {
      this.modulus = modulus;
      this.rekey = rekey;
      this.received = received;
      this.problems = problems;
    }

    @Override
    public void open(OperatorContext context) {
      this.ctx = context;
    }

    @Override
    public void setCurrentKey(byte[] keyBytes) {
      this.currentKey = keyBytes;
    }

    @Override
    public void processElement(int port, Object element) {
      if (!(element instanceof Long value)) {
        problems.add("got " + element.getClass().getSimpleName() + " instead of the element");
        return;
      }
      if (currentKey == null || ByteBuffer.wrap(currentKey).getLong() != value % modulus) {
        problems.add("element " + value + " arrived without its key " + value % modulus);
      }
      currentKey = null;
      received.incrementAndGet();
      if (rekey) {
        ctx.output().emit(0, new KeyedElement(keyBytes(value % 7), value));
      }
    }
  }

  @Test
  void keyedElementsSetTheKeyAcrossEdgesAndInsideChains() throws Exception {
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    Vertex src = g.addVertex("source", 1);
    OperatorNode range =
        src.addOperator("range", () -> new TestOperators.RangeSource(0, ELEMENTS, emitted));
    range.declareOutputs(1);

    List<String> problems = new CopyOnWriteArrayList<>();
    AtomicLong atHead = new AtomicLong();
    AtomicLong fused = new AtomicLong();
    Vertex keyed = g.addVertex("keyed", 2);
    OperatorNode head =
        keyed.addOperator("head", () -> new KeyChecker(100, true, atHead, problems));
    head.declareOutputs(1);
    OperatorNode behind =
        keyed.addOperator("behind", () -> new KeyChecker(7, false, fused, problems));
    behind.declareOutputs(0);
    keyed.connect(head, 0, behind, 0);
    g.connect(src, range, 0, keyed, head, 0, EdgeKind.KEYED, e -> keyBytes((Long) e % 100));

    RuntimeConfig config =
        new RuntimeConfig(1000, 1000, 64, 4, stateRoot, JobClock.SYSTEM, false, null, false);
    JobMonitor m = JobExecutor.start("keyed-delivery", g, config);
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(60, TimeUnit.SECONDS), "" + m.failure());
    assertTrue(problems.isEmpty(), () -> problems.size() + " problems, e.g. " + problems.get(0));
    assertEquals(ELEMENTS, atHead.get());
    assertEquals(ELEMENTS, fused.get());
  }
}
