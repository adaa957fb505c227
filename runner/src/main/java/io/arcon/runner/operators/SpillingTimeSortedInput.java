package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.state.StateBackend;
import java.io.IOException;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * A {@link TimeSortedInput} for rocksdb and lmdb: elements wait on the heap, as they are, while
 * fewer than {@link #MEMORY_LIMIT} do, and in the state backend beyond that, so a large buffer
 * still spills like any other state. A buffer that only spans the watermark's lag (the usual case:
 * out-of-order input a little behind the watermark) then costs no encode, put, scan and delete per
 * element in the backend.
 *
 * <p>Arrivals are numbered across both parts, and a release merges them by (timestamp, arrival), so
 * elements leave in exactly the order one buffer would give. At a snapshot the elements on the heap
 * go into the operator's snapshot (as {@link HeapTimeSortedInput}'s do) and the spilled ones are in
 * the backend's; after a restore the heap's are added again, after the spilled ones among elements
 * of equal timestamp.
 */
final class SpillingTimeSortedInput<InT> implements TimeSortedInput<InT> {
  /** Elements kept on the heap before new ones go to the backend. */
  static final int MEMORY_LIMIT = 1 << 16;

  private final HeapTimeSortedInput<InT> memory = new HeapTimeSortedInput<>();
  private final BackendTimeSortedInput<InT> spilled;
  private final int memoryLimit;
  private long arrival;

  SpillingTimeSortedInput(
      StateBackend backend,
      Coder<InT> inputCoder,
      Coder<? extends BoundedWindow> windowCoder,
      int memoryLimit) {
    this.spilled = new BackendTimeSortedInput<>(backend, inputCoder, windowCoder);
    this.memoryLimit = memoryLimit;
    this.arrival = spilled.nextSequence();
  }

  @Override
  public void add(byte[] encodedKey, WindowedValue<InT> element) {
    long order = arrival++;
    if (memory.size() < memoryLimit) {
      memory.add(encodedKey, element, order);
    } else {
      spilled.add(encodedKey, element, order);
    }
  }

  @Override
  public long size() {
    return memory.size() + spilled.size();
  }

  /** Elements in the backend now. */
  long spilledSize() {
    return spilled.size();
  }

  @Override
  public void releaseBefore(long watermark, Release<InT> release) throws Exception {
    while (spilled.size() > 0) {
      List<BackendTimeSortedInput.Buffered<InT>> batch = spilled.takeBefore(watermark);
      if (batch.isEmpty()) {
        break;
      }
      for (BackendTimeSortedInput.Buffered<InT> next : batch) {
        while (memory.firstBefore(next.timestamp(), next.order())) {
          memory.releaseFirst(release);
        }
        release.release(next.encodedKey(), next.element());
      }
    }
    memory.releaseBefore(watermark, release);
  }

  @Override
  public void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    memory.writeTo(out, coder);
  }
}
