package io.arcon.benchmarks.portable;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;

/**
 * Word count over generated text: line {@code i} (of {@code lines}) has {@link #WORDS_PER_LINE}
 * words drawn deterministically from a vocabulary of {@code vocabulary} words, so every runner sees
 * the same input. The lines are split into words, counted per word ({@code Count.perElement}), and
 * the counts land in counters the benchmark checks: {@link #WORDS} (distinct words) and {@link
 * #COUNTED} (the counts' sum, which must equal lines × words per line).
 */
final class WordCountPipeline {
  static final String NAMESPACE = "wordcount";
  static final String WORDS = "distinct-words";
  static final String COUNTED = "counted-words";
  static final int WORDS_PER_LINE = 10;

  private WordCountPipeline() {}

  static void build(Pipeline pipeline, long lines, int vocabulary) {
    pipeline
        .apply("Lines", GenerateSequence.from(0).to(lines))
        .apply("Text", ParDo.of(new LineText(vocabulary)))
        .apply("Split", ParDo.of(new SplitWords()))
        .apply("Count", Count.perElement())
        .apply("Check", ParDo.of(new CountSink()));
  }

  /** Line {@code i}'s text. */
  static final class LineText extends DoFn<Long, String> {
    private final int vocabulary;

    LineText(int vocabulary) {
      this.vocabulary = vocabulary;
    }

    @ProcessElement
    public void process(@Element Long i, OutputReceiver<String> out) {
      StringBuilder line = new StringBuilder();
      for (int j = 0; j < WORDS_PER_LINE; j++) {
        long word = Math.floorMod(i * 7919L + j * 104_729L + (i >>> 3) * j, (long) vocabulary);
        if (j > 0) {
          line.append(' ');
        }
        line.append('w').append(word);
      }
      out.output(line.toString());
    }
  }

  /** A line's words. */
  static final class SplitWords extends DoFn<String, String> {
    @ProcessElement
    public void process(@Element String line, OutputReceiver<String> out) {
      for (String word : line.split(" ")) {
        out.output(word);
      }
    }
  }

  /** Counts what reaches the end, for the benchmark's check. */
  static final class CountSink extends DoFn<KV<String, Long>, Void> {
    private final Counter words = Metrics.counter(NAMESPACE, WORDS);
    private final Counter counted = Metrics.counter(NAMESPACE, COUNTED);

    @ProcessElement
    public void process(@Element KV<String, Long> count) {
      words.inc();
      counted.inc(count.getValue());
    }
  }
}
