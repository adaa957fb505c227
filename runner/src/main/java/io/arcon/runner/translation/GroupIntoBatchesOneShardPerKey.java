package io.arcon.runner.translation;

import java.util.Map;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.AppliedPTransform;
import org.apache.beam.sdk.runners.PTransformOverrideFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.util.ShardedKey;
import org.apache.beam.sdk.util.construction.ReplacementOutputs;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Duration;

/**
 * Replaces {@code GroupIntoBatches.withShardedKey()}. Beam's default shards each key by the id of
 * the worker thread that saw the element, which on ArconRunner (pooled dispatcher threads, several
 * parallel instances) splits a key into many shards and so into many partial batches. A key's state
 * lives on exactly one node instance here anyway, so sharding buys no parallelism: each key gets
 * one shard (an empty shard id), and batches fill up to the configured size, as the runner chooses
 * the number of shards per the transform's contract.
 */
final class GroupIntoBatchesOneShardPerKey<K, V>
    extends PTransform<PCollection<KV<K, V>>, PCollection<KV<ShardedKey<K>, Iterable<V>>>> {
  private static final byte[] ONE_SHARD = new byte[0];

  private final GroupIntoBatches.BatchingParams<V> params;

  GroupIntoBatchesOneShardPerKey(GroupIntoBatches.BatchingParams<V> params) {
    this.params = params;
  }

  @Override
  public PCollection<KV<ShardedKey<K>, Iterable<V>>> expand(PCollection<KV<K, V>> input) {
    KvCoder<K, V> inputCoder = (KvCoder<K, V>) input.getCoder();
    return input
        .apply("GroupIntoBatches", batchesLike(params))
        .apply("OneShardPerKey", ParDo.of(new ToShardedKey<K, V>()))
        .setCoder(
            KvCoder.of(
                ShardedKey.Coder.of(inputCoder.getKeyCoder()),
                IterableCoder.of(inputCoder.getValueCoder())));
  }

  /** The unsharded GroupIntoBatches with the same size, byte size and buffering limits. */
  private static <K, V> GroupIntoBatches<K, V> batchesLike(GroupIntoBatches.BatchingParams<V> p) {
    GroupIntoBatches<K, V> batches = GroupIntoBatches.ofSize(p.getBatchSize());
    if (p.getBatchSizeBytes() != Long.MAX_VALUE) {
      batches =
          p.getElementByteSize() == null
              ? batches.withByteSize(p.getBatchSizeBytes())
              : batches.withByteSize(p.getBatchSizeBytes(), p.getElementByteSize());
    }
    Duration buffering = p.getMaxBufferingDuration();
    if (buffering != null && buffering.isLongerThan(Duration.ZERO)) {
      batches = batches.withMaxBufferingDuration(buffering);
    }
    return batches;
  }

  private static final class ToShardedKey<K, V>
      extends DoFn<KV<K, Iterable<V>>, KV<ShardedKey<K>, Iterable<V>>> {
    @ProcessElement
    public void process(
        @Element KV<K, Iterable<V>> batch, OutputReceiver<KV<ShardedKey<K>, Iterable<V>>> out) {
      out.output(KV.of(ShardedKey.of(batch.getKey(), ONE_SHARD), batch.getValue()));
    }
  }

  static final class Factory<K, V>
      implements PTransformOverrideFactory<
          PCollection<KV<K, V>>,
          PCollection<KV<ShardedKey<K>, Iterable<V>>>,
          GroupIntoBatches<K, V>.WithShardedKey> {

    @Override
    public PTransformReplacement<PCollection<KV<K, V>>, PCollection<KV<ShardedKey<K>, Iterable<V>>>>
        getReplacementTransform(
            AppliedPTransform<
                    PCollection<KV<K, V>>,
                    PCollection<KV<ShardedKey<K>, Iterable<V>>>,
                    GroupIntoBatches<K, V>.WithShardedKey>
                transform) {
      @SuppressWarnings("unchecked")
      PCollection<KV<K, V>> input =
          (PCollection<KV<K, V>>) transform.getInputs().values().iterator().next();
      return PTransformReplacement.of(
          input,
          new GroupIntoBatchesOneShardPerKey<K, V>(transform.getTransform().getBatchingParams()));
    }

    @Override
    public Map<PCollection<?>, ReplacementOutput> mapOutputs(
        Map<TupleTag<?>, PCollection<?>> outputs,
        PCollection<KV<ShardedKey<K>, Iterable<V>>> newOutput) {
      return ReplacementOutputs.singleton(outputs, newOutput);
    }
  }
}
