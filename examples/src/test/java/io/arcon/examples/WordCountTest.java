package io.arcon.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WordCountTest {

  @TempDir Path tmp;

  static Stream<String> runners() {
    return Runners.names();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runners")
  void countsOfTheGeneratedCorpusEqualAPlainJavaCount(String runner) throws IOException {
    assertCountsMatch(runner, BundledData.resolve(BundledData.CORPUS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runners")
  void countsOfKingLearEqualAPlainJavaCount(String runner) throws IOException {
    assertCountsMatch(runner, BundledData.resolve(BundledData.KING_LEAR));
  }

  private void assertCountsMatch(String runner, Path input) throws IOException {
    String output = tmp.resolve("out").toString();
    WordCount.WordCountOptions options =
        Runners.options(
            WordCount.WordCountOptions.class, runner, "--inputFile=" + input, "--output=" + output);
    Pipeline pipeline = Pipeline.create(options);
    WordCount.build(pipeline, options);
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());

    List<String> shardNames;
    try (Stream<Path> files = Files.list(tmp)) {
      shardNames = files.map(f -> f.getFileName().toString()).sorted().toList();
    }
    assertFalse(shardNames.isEmpty(), "no output files");
    for (String name : shardNames) {
      assertTrue(name.matches("out-\\d{5}-of-\\d{5}"), "unexpected output file name " + name);
    }

    Map<String, Long> actual = new HashMap<>();
    for (String line : Runners.readLines(tmp, "out-")) {
      int colon = line.lastIndexOf(": ");
      assertTrue(colon > 0, "line not in `word: count` form: " + line);
      Long previous =
          actual.put(line.substring(0, colon), Long.parseLong(line.substring(colon + 2)));
      assertEquals(null, previous, "word written twice: " + line);
    }
    assertEquals(countWordsInPlainJava(input), actual);
  }

  /** Scans characters rather than splitting by the pipeline's regex, to check it independently. */
  static Map<String, Long> countWordsInPlainJava(Path input) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    String text = Files.readString(input);
    int i = 0;
    while (i < text.length()) {
      int codePoint = text.codePointAt(i);
      if (!Character.isLetter(codePoint)) {
        i += Character.charCount(codePoint);
        continue;
      }
      int start = i;
      while (i < text.length() && Character.isLetter(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      counts.merge(text.substring(start, i), 1L, Long::sum);
    }
    return counts;
  }
}
