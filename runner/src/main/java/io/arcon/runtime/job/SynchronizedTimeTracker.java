package io.arcon.runtime.job;

import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * Computes Beam's synchronized processing time per vertex of a job: processing time held back by
 * upstream work that is not done yet, which is what continuation triggers ({@code
 * AfterSynchronizedProcessingTime}) of a downstream GroupByKey wait for.
 *
 * <p>The rules are those of Beam's DirectRunner, with messages in the role of its bundles. Every
 * batch and every watermark message is stamped with its sender's synchronized output time and holds
 * the receiving vertex's input at that stamp until the receiver has handled it; the receiver then
 * holds its own output at the stamp until what it produced from the message has been sent (the
 * batch's bundle is finished, the watermark's consequences are forwarded). So:
 *
 * <ul>
 *   <li>input time of V = min(processing time, stamps of messages V has not handled, output time of
 *       every upstream vertex);
 *   <li>output time of V = min(input time of V, V's own holds).
 * </ul>
 *
 * <p>Watermark messages hold, unlike in the DirectRunner where a watermark moves through all
 * instances of a step at once: here each instance forwards it on its own, and a downstream step
 * must not see an upstream instance's on-time pane and then run its synchronized-time timers before
 * another instance's final watermark has reached it. User timer callbacks do not hold (a node lets
 * go of its watermark holds before them), as in the DirectRunner, where synchronized time moves on
 * while a DoFn's event-time timer runs.
 *
 * <p>Vertices of the job are few, so each query walks the upstream graph; all methods are
 * synchronized, and the runtime uses a tracker only for jobs with synchronized-time triggers.
 */
public final class SynchronizedTimeTracker {
  private final JobClock clock;
  private final int[][] upstream;
  private final Holds[] inputHolds;
  private final Holds[] outputHolds;
  private final long[] memo;
  private final boolean[] memoValid;

  public SynchronizedTimeTracker(JobGraph graph, JobClock clock) {
    this.clock = clock;
    int maxId = -1;
    for (Vertex v : graph.vertices()) {
      maxId = Math.max(maxId, v.id());
    }
    upstream = new int[maxId + 1][];
    inputHolds = new Holds[maxId + 1];
    outputHolds = new Holds[maxId + 1];
    for (Vertex v : graph.vertices()) {
      upstream[v.id()] =
          v.inputs().stream().map(Edge::source).mapToInt(Vertex::id).distinct().toArray();
      inputHolds[v.id()] = new Holds();
      outputHolds[v.id()] = new Holds();
    }
    memo = new long[maxId + 1];
    memoValid = new boolean[maxId + 1];
  }

  /** The synchronized processing time of {@code vertexId}'s input, in epoch millis. */
  public synchronized long inputTime(int vertexId) {
    long now = clock.nowMillis();
    Arrays.fill(memoValid, false);
    return input(vertexId, now);
  }

  /** The synchronized processing time of {@code vertexId}'s output, in epoch millis. */
  public synchronized long outputTime(int vertexId) {
    long now = clock.nowMillis();
    Arrays.fill(memoValid, false);
    return output(vertexId, now);
  }

  /**
   * Calls {@code send} with {@code senderId}'s output time as the stamp while holding this tracker,
   * so that the holds {@code send} adds at its receivers ({@link #hold}) are all in place before
   * any vertex's time is computed again.
   */
  public synchronized void sendStamped(int senderId, LongConsumer send) {
    send.accept(outputTime(senderId));
  }

  /**
   * A message from {@code senderId} to {@code receiverId} is being sent: returns its stamp (the
   * sender's output time) and holds the receiver's input there until {@link #inputHandled}.
   */
  public synchronized long stampAndHold(int senderId, int receiverId) {
    long stamp = outputTime(senderId);
    inputHolds[receiverId].add(stamp);
    return stamp;
  }

  /**
   * Holds {@code receiverId}'s input at {@code stamp}, a stamp its sender took with {@link
   * #sendStamped}, for one more message it sends with it.
   */
  public synchronized void hold(int receiverId, long stamp) {
    inputHolds[receiverId].add(stamp);
  }

  /**
   * The receiver handled a message stamped {@code stamp}: its input no longer waits for it, its
   * output does until {@link #outputReleased}.
   */
  public synchronized void inputHandled(int vertexId, long stamp) {
    inputHolds[vertexId].remove(stamp);
    outputHolds[vertexId].add(stamp);
  }

  /** What the vertex produced from a message stamped {@code stamp} has been sent. */
  public synchronized void outputReleased(int vertexId, long stamp) {
    outputHolds[vertexId].remove(stamp);
  }

  private long input(int v, long now) {
    long time = Math.min(now, inputHolds[v].min());
    for (int u : upstream[v]) {
      time = Math.min(time, output(u, now));
    }
    return time;
  }

  private long output(int v, long now) {
    if (memoValid[v]) {
      return memo[v];
    }
    long time = Math.min(input(v, now), outputHolds[v].min());
    memo[v] = time;
    memoValid[v] = true;
    return time;
  }

  /** A multiset of stamps. */
  private static final class Holds {
    private final TreeMap<Long, Integer> counts = new TreeMap<>();

    void add(long stamp) {
      counts.merge(stamp, 1, Integer::sum);
    }

    void remove(long stamp) {
      Integer count = counts.get(stamp);
      if (count == null) {
        throw new IllegalStateException("No hold at " + stamp + " to release");
      }
      if (count == 1) {
        counts.remove(stamp);
      } else {
        counts.put(stamp, count - 1);
      }
    }

    long min() {
      Map.Entry<Long, Integer> first = counts.firstEntry();
      return first == null ? Long.MAX_VALUE : first.getKey();
    }
  }
}
