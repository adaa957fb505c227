package io.arcon.runner.translation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.util.ShardedKey;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;

class GroupIntoBatchesOneShardPerKeyTest {

  @Test
  void eachKeyIsOneShardAndEveryBatchIsFull() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(2);
    Pipeline p = Pipeline.create(options);
    List<KV<String, Integer>> input = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      input.add(KV.of("a", i));
      input.add(KV.of("b", i));
    }
    PCollection<KV<ShardedKey<String>, Iterable<Integer>>> batches =
        p.apply(Create.of(input))
            .apply(GroupIntoBatches.<String, Integer>ofSize(10).withShardedKey());
    PAssert.that(batches)
        .satisfies(
            all -> {
              int count = 0;
              Set<ShardedKey<String>> shards = new HashSet<>();
              for (KV<ShardedKey<String>, Iterable<Integer>> batch : all) {
                count++;
                shards.add(batch.getKey());
                int size = 0;
                for (Integer ignored : batch.getValue()) {
                  size++;
                }
                assertEquals(10, size, "a partial batch of " + batch.getKey());
              }
              assertEquals(200, count);
              assertEquals(2, shards.size(), "one shard per key: " + shards);
              return null;
            });
    p.run().waitUntilFinish();
  }
}
