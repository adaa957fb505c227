package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * A {@link TimeSortedInput} on the Java heap: a priority queue of the elements as they are, ordered
 * by (timestamp, arrival).
 */
final class HeapTimeSortedInput<InT> implements TimeSortedInput<InT> {

  private record Buffered<InT>(
      long timestamp, long sequence, byte[] encodedKey, WindowedValue<InT> element) {}

  private final PriorityQueue<Buffered<InT>> queue =
      new PriorityQueue<>(
          (a, b) ->
              a.timestamp != b.timestamp
                  ? Long.compare(a.timestamp, b.timestamp)
                  : Long.compare(a.sequence, b.sequence));
  private long sequence;

  @Override
  public void add(byte[] encodedKey, WindowedValue<InT> element) {
    queue.add(new Buffered<>(element.getTimestamp().getMillis(), sequence++, encodedKey, element));
  }

  @Override
  public long size() {
    return queue.size();
  }

  @Override
  public void releaseBefore(long watermark, Release<InT> release) throws Exception {
    while (!queue.isEmpty()
        && (watermark == Long.MAX_VALUE || queue.peek().timestamp() < watermark)) {
      Buffered<InT> next = queue.poll();
      release.release(next.encodedKey(), next.element());
    }
  }

  @Override
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    List<Buffered<InT>> ordered = new ArrayList<>(queue);
    ordered.sort(queue.comparator());
    List<HeldElements.Held<InT>> held = new ArrayList<>(ordered.size());
    for (Buffered<InT> b : ordered) {
      held.add(new HeldElements.Held<>(b.encodedKey(), b.element()));
    }
    HeldElements.write(out, coder, held);
  }
}
