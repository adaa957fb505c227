package io.arcon.runner;

import io.arcon.runner.checkpointing.CheckpointingOptions;
import io.arcon.runner.progress.ProgressOptions;
import io.arcon.runner.tss.TssPipelineOptions;
import io.arcon.runner.webui.WebUiOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.DefaultValueFactory;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.StreamingOptions;

/** Options of {@link ArconRunner}. */
public interface ArconPipelineOptions
    extends PipelineOptions,
        StreamingOptions,
        TssPipelineOptions,
        CheckpointingOptions,
        WebUiOptions,
        ProgressOptions {

  @Description(
      "Parallel instances of every operator chain. Default: the number of available processors.")
  @Default.InstanceFactory(AvailableProcessors.class)
  Integer getParallelism();

  void setParallelism(Integer parallelism);

  @Description("Maximum number of elements in a bundle before it is finished.")
  @Default.Long(1000)
  Long getMaxBundleSize();

  void setMaxBundleSize(Long size);

  @Description("Maximum time in milliseconds a bundle stays open before it is finished.")
  @Default.Long(1000)
  Long getMaxBundleTimeMills();

  void setMaxBundleTimeMills(Long time);

  @Description(
      "Whether each node instance (a parallel instance of a fused chain of transforms) runs on its"
          + " own home thread every time, one queue per thread: its state, timers and buffers then"
          + " stay in one core's caches. An idle thread takes the nodes waiting behind one stuck in"
          + " a node's work for over 2 ms, and when every thread is blocked (sleeping, waiting, or"
          + " 50 ms in one task) a spare thread takes them. false: the nodes share a work-stealing"
          + " pool (Pekko's fork-join pool, at least 8 threads).")
  @Default.Boolean(true)
  Boolean getPinNodes();

  void setPinNodes(Boolean pin);

  @Description(
      "Threads that run the job's node instances. 0 (the default): one per available processor"
          + " with --pinNodes=true, Pekko's default fork-join sizing (at least 8) with"
          + " --pinNodes=false.")
  @Default.Integer(0)
  Integer getNodeThreads();

  void setNodeThreads(Integer threads);

  @Description(
      "How far, in event time, one input of a transform that sorts its input by event time"
          + " (@RequiresTimeSortedInput, or exported exactly by --tssExport) may run ahead of its"
          + " slowest input before the runner stops taking input from it: an ISO-8601 duration"
          + " such as PT1S, or off. What runs ahead waits in the transform's sort buffer until the"
          + " slowest input catches up; held back upstream instead, it costs no memory. An input"
          + " whose watermark stands still for 200 ms (an idle source) is not waited for.")
  @Default.String("PT1S")
  String getMaxWatermarkDrift();

  void setMaxWatermarkDrift(String drift);

  @Description(
      "State engine of every stateful transform (stateful ParDo, GroupByKey, Combine, splittable"
          + " DoFn) unless --stateBackends overrides it: heap (in memory, fastest), rocksdb (LSM"
          + " tree on disk: write-heavy or larger-than-memory state) or lmdb (memory-mapped"
          + " B+tree: read-heavy state).")
  @Default.String("heap")
  String getStateBackend();

  void setStateBackend(String engine);

  @Description(
      "Per-transform state engines: comma-separated <pattern>=<engine> rules. A pattern is a glob"
          + " ('*' any characters including '/', '?' one character) matched against a stateful"
          + " transform's full name or the full name of an enclosing composite, e.g."
          + " 'CountPerUser=rocksdb,*/Dedup*=lmdb'. The first matching rule wins; every rule must"
          + " match at least one stateful transform, and a rule that can never apply (same pattern"
          + " as an earlier rule, or after a '*' rule) is refused.")
  String getStateBackends();

  void setStateBackends(String rules);

  @Description(
      "Tuning of the state engines, for every backend of the job: comma-separated key=value pairs,"
          + " e.g. 'rocksdb.rowCacheMaxBytes=67108864'. Keys: rocksdb.blockCacheBytes,"
          + " rocksdb.writeBufferBytes, rocksdb.maxWriteBufferNumber, rocksdb.rowCacheBytes (a"
          + " table's row cache at first), rocksdb.rowCacheMaxBytes (how far it may grow into the"
          + " JVM's row cache memory, an eighth of the heap; at least rocksdb.rowCacheBytes),"
          + " lmdb.mapSizeBytes, lmdb.maxTables, lmdb.writeBatchOps; each engine reads its own."
          + " Unknown keys and bad values are refused before the job starts.")
  String getStateBackendOptions();

  void setStateBackendOptions(String options);

  @Description(
      "Directory under which persistent state engines (rocksdb, lmdb) keep their files; each run"
          + " gets its own subdirectory, which is kept after the run. Default: a temporary"
          + " directory removed after a successful run.")
  String getStateDir();

  void setStateDir(String directory);

  /** The default parallelism: one instance per available processor. */
  class AvailableProcessors implements DefaultValueFactory<Integer> {
    @Override
    public Integer create(PipelineOptions options) {
      return Runtime.getRuntime().availableProcessors();
    }
  }
}
