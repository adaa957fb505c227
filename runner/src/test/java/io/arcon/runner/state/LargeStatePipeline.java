package io.arcon.runner.state;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * A pipeline whose keyed state is larger than its JVM heap: every key receives {@link
 * #VALUES_PER_KEY} random payloads, all kept in BagState and the latest in ValueState, and state is
 * never cleared. When a key's last payload arrives the DoFn reads its whole bag back and emits the
 * CRC32 sum of what the engine returned, so the pipeline's totals prove every byte survived.
 *
 * <p>Run by {@link LargerThanHeapStateTest} in a forked JVM with a small {@code -Xmx}: {@code
 * LargeStatePipeline <engine> <keys> <payloadBytes>}. Exits non-zero when the state would fit in
 * twice the heap (the run would prove nothing) or the pipeline fails.
 */
public final class LargeStatePipeline {
  static final int VALUES_PER_KEY = 2;

  private LargeStatePipeline() {}

  public static void main(String[] args) {
    String engine = args[0];
    long keys = Long.parseLong(args[1]);
    int payloadBytes = Integer.parseInt(args[2]);
    long stateBytes = keys * VALUES_PER_KEY * payloadBytes;
    long heap = Runtime.getRuntime().maxMemory();
    if (stateBytes < 2 * heap) {
      System.err.printf("State of %d bytes is not 2x the heap of %d bytes%n", stateBytes, heap);
      System.exit(2);
    }
    long elements = keys * VALUES_PER_KEY;
    long expectedCrcSum = 0;
    for (long i = 0; i < elements; i++) {
      expectedCrcSum += crc(payload(i, payloadBytes));
    }

    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(2);
    options.setStateBackend(engine);
    Pipeline p = Pipeline.create(options);
    PCollection<Long> perKeyCrcSums =
        p.apply(GenerateSequence.from(0).to(elements))
            .apply(MapElements.via(new ToPayload(keys, payloadBytes)))
            .setCoder(KvCoder.of(VarLongCoder.of(), ByteArrayCoder.of()))
            .apply("KeepEverything", ParDo.of(new KeepEverything()));
    PAssert.thatSingleton(perKeyCrcSums.apply("Keys", Count.globally())).isEqualTo(keys);
    PAssert.thatSingleton(perKeyCrcSums.apply("CrcSum", Sum.longsGlobally()))
        .isEqualTo(expectedCrcSum);
    long start = System.nanoTime();
    p.run().waitUntilFinish();
    System.out.printf(
        "%s: %d keys, %d MB of state with -Xmx%dm verified in %.1f s%n",
        engine, keys, stateBytes >> 20, heap >> 20, (System.nanoTime() - start) / 1e9);
  }

  static byte[] payload(long index, int bytes) {
    byte[] payload = new byte[bytes];
    new Random(index).nextBytes(payload);
    return payload;
  }

  static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  /** Element {@code i} goes to key {@code i % keys}. */
  static final class ToPayload extends SimpleFunction<Long, KV<Long, byte[]>> {
    private final long keys;
    private final int payloadBytes;

    ToPayload(long keys, int payloadBytes) {
      this.keys = keys;
      this.payloadBytes = payloadBytes;
    }

    @Override
    public KV<Long, byte[]> apply(Long i) {
      return KV.of(i % keys, payload(i, payloadBytes));
    }
  }

  /** Keeps every payload; emits the CRC32 sum of the bag read back once a key is complete. */
  static final class KeepEverything extends DoFn<KV<Long, byte[]>, Long> {
    @StateId("bag")
    private final StateSpec<BagState<byte[]>> bagSpec = StateSpecs.bag(ByteArrayCoder.of());

    @StateId("latest")
    private final StateSpec<ValueState<byte[]>> latestSpec = StateSpecs.value(ByteArrayCoder.of());

    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(
        @Element KV<Long, byte[]> element,
        @StateId("bag") BagState<byte[]> bag,
        @StateId("latest") ValueState<byte[]> latest,
        @StateId("count") ValueState<Long> count,
        OutputReceiver<Long> out) {
      bag.add(element.getValue());
      latest.write(element.getValue());
      long seen = (count.read() == null ? 0 : count.read()) + 1;
      count.write(seen);
      if (seen == VALUES_PER_KEY) {
        long crcSum = 0;
        int size = 0;
        for (byte[] stored : bag.read()) {
          crcSum += crc(stored);
          size++;
        }
        if (size != VALUES_PER_KEY) {
          throw new IllegalStateException(
              "Key " + element.getKey() + " has " + size + " bag elements, expected " + seen);
        }
        out.output(crcSum);
      }
    }
  }
}
