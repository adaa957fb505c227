package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.state.StateBackend;
import java.io.IOException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * The input buffer of a stateful ParDo that processes its input in event-time order ({@code
 * RequiresTimeSortedInput}, or state exported exactly with {@code --tssExport}): elements wait
 * until the input watermark passes them and are then released in timestamp order across all keys of
 * the instance. One buffer per instance instead of runners-core's per-key bag: adding is one
 * insert, releasing one ordered walk, with no per-key sort or timer.
 */
public interface TimeSortedInput<InT> {

  /** What the operator does with each released element. */
  interface Release<InT> {
    /**
     * Called for each element with timestamp below the watermark, in timestamp order (elements with
     * equal timestamps in arrival order).
     */
    void release(byte[] encodedKey, WindowedValue<InT> element) throws Exception;
  }

  /**
   * The buffer for an operator on {@code engine}: in memory on heap (the state is in memory there
   * anyway, and skipping the encode/decode and the heap table's ordered index is most of the
   * buffer's cost); on rocksdb and lmdb in memory up to {@link
   * SpillingTimeSortedInput#MEMORY_LIMIT} elements and in the backend beyond (where it spills).
   */
  static <InT> TimeSortedInput<InT> forEngine(
      String engine,
      StateBackend backend,
      Coder<InT> inputCoder,
      Coder<? extends BoundedWindow> windowCoder) {
    return "heap".equals(engine)
        ? new HeapTimeSortedInput<>()
        : new SpillingTimeSortedInput<>(
            backend, inputCoder, windowCoder, SpillingTimeSortedInput.MEMORY_LIMIT);
  }

  /** Buffers {@code element}, whose key encodes to {@code encodedKey}. */
  void add(byte[] encodedKey, WindowedValue<InT> element);

  /** Number of buffered elements. */
  long size();

  /**
   * Releases, in timestamp order, every buffered element with a timestamp below {@code watermark}
   * (all of them for {@code Long.MAX_VALUE}).
   */
  void releaseBefore(long watermark, Release<InT> release) throws Exception;

  /**
   * Writes, for an epoch snapshot, the elements kept outside the state backend (in the format of
   * {@link HeldElements}); a buffer in the backend writes none, the backend's snapshot has them.
   */
  void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException;
}
