package io.arcon.examples;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Counts the words of a text file and writes {@code word: count} lines as sharded text files, the
 * same pipeline and output format as Beam's own WordCount example.
 *
 * <pre>
 * mvn -q -pl examples -am compile exec:java -Dexec.mainClass=io.arcon.examples.WordCount \
 *   -Dexec.args="--runner=ArconRunner --output=/tmp/wordcount/out"
 * </pre>
 */
public final class WordCount {

  /** A word is a maximal run of letters, as in Beam's WordCount. */
  public static final String TOKENIZER_PATTERN = "[^\\p{L}]+";

  private WordCount() {}

  /** Options of the WordCount example. */
  public interface WordCountOptions extends PipelineOptions {
    @Description(
        "Text file (or glob) to count. Defaults to the corpus bundled in examples/data/, found"
            + " relative to the repository root or to the examples/ folder.")
    @Default.InstanceFactory(BundledData.CorpusFactory.class)
    String getInputFile();

    void setInputFile(String value);

    @Description("Prefix of the output files, e.g. /tmp/wordcount/out")
    @Default.String("/tmp/wordcount/out")
    String getOutput();

    void setOutput(String value);
  }

  /** Splits lines into words and counts empty lines, so the run can be checked from metrics. */
  static class ExtractWordsFn extends DoFn<String, String> {
    private final Counter emptyLines = Metrics.counter(ExtractWordsFn.class, "emptyLines");

    @ProcessElement
    public void processElement(@Element String line, OutputReceiver<String> out) {
      if (line.trim().isEmpty()) {
        emptyLines.inc();
      }
      for (String word : line.split(TOKENIZER_PATTERN, -1)) {
        if (!word.isEmpty()) {
          out.output(word);
        }
      }
    }
  }

  /** Formats a word and its count as {@code word: count}. */
  public static class FormatAsTextFn extends SimpleFunction<KV<String, Long>, String> {
    @Override
    public String apply(KV<String, Long> wordCount) {
      return wordCount.getKey() + ": " + wordCount.getValue();
    }
  }

  /** Lines of text in, {@code (word, count)} pairs out. */
  public static class CountWords
      extends PTransform<PCollection<String>, PCollection<KV<String, Long>>> {
    @Override
    public PCollection<KV<String, Long>> expand(PCollection<String> lines) {
      return lines.apply("ExtractWords", ParDo.of(new ExtractWordsFn())).apply(Count.perElement());
    }
  }

  /** Adds the whole WordCount pipeline (read, count, format, write) to {@code pipeline}. */
  public static void build(Pipeline pipeline, WordCountOptions options) {
    pipeline
        .apply("ReadLines", TextIO.read().from(options.getInputFile()))
        .apply(new CountWords())
        .apply("Format", MapElements.via(new FormatAsTextFn()))
        .apply("WriteCounts", TextIO.write().to(options.getOutput()));
  }

  public static void main(String[] args) {
    WordCountOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(WordCountOptions.class);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, options);
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    System.out.printf(
        "WordCount %s: counted %s, wrote %s-*%n",
        state, options.getInputFile(), options.getOutput());
  }
}
