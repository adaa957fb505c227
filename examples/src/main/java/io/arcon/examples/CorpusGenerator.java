package io.arcon.examples;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes a deterministic English-looking text: words drawn from a small vocabulary with a skewed
 * (Zipf-like) distribution by a seeded {@link Random}, so every checkout has byte-identical input
 * and word counts with a long tail, like real text.
 *
 * <p>{@code examples/data/generated-corpus.txt} was produced by {@code CorpusGenerator
 * examples/data/generated-corpus.txt 100000 42}.
 */
public final class CorpusGenerator {

  static final String[] VOCABULARY = {
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "that",
    "is",
    "was",
    "he",
    "for",
    "it",
    "with",
    "as",
    "his",
    "on",
    "be",
    "at",
    "by",
    "had",
    "not",
    "are",
    "but",
    "from",
    "or",
    "have",
    "an",
    "they",
    "which",
    "one",
    "you",
    "were",
    "her",
    "all",
    "she",
    "there",
    "would",
    "their",
    "we",
    "him",
    "been",
    "has",
    "when",
    "who",
    "will",
    "more",
    "no",
    "if",
    "out",
    "so",
    "said",
    "what",
    "up",
    "its",
    "about",
    "into",
    "than",
    "them",
    "can",
    "only",
    "other",
    "new",
    "some",
    "could",
    "time",
    "these",
    "two",
    "may",
    "then",
    "do",
    "first",
    "any",
    "my",
    "now",
    "such",
    "like",
    "our",
    "over",
    "man",
    "me",
    "even",
    "most",
    "made",
    "after",
    "also",
    "did",
    "many",
    "before",
    "must",
    "through",
    "back",
    "years",
    "where",
    "much",
    "your",
    "way",
    "well",
    "down",
    "should",
    "because",
    "each",
    "just",
    "those",
    "people",
    "how",
    "too",
    "little",
    "state",
    "good",
    "very",
    "make",
    "world",
    "still",
    "own",
    "see",
    "men",
    "work",
    "long",
    "get",
    "here",
    "between",
    "both",
    "life",
    "being",
    "under",
    "never",
    "day",
    "same",
    "another",
    "know",
    "while",
    "last",
    "might",
    "us",
    "great",
    "old",
    "year",
    "off",
    "come",
    "since",
    "against",
    "go",
    "came",
    "right",
    "used",
    "take",
    "three",
    "river",
    "stream",
    "window",
    "watermark",
    "kingdom",
    "daughter",
    "storm",
    "heath",
    "crown",
    "fool",
    "nothing",
    "nature",
    "heart",
    "sister",
    "father",
    "night",
    "light",
    "sea",
    "castle",
    "letter",
    "duke",
    "earl",
    "king"
  };

  private CorpusGenerator() {}

  /** Writes {@code words} words, 5 to 14 per line, a blank line between paragraphs. */
  public static void write(Path file, int words, long seed) throws IOException {
    if (words <= 0) {
      throw new IllegalArgumentException("words must be positive, got " + words);
    }
    Random random = new Random(seed);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      int written = 0;
      int linesInParagraph = 0;
      while (written < words) {
        int lineLength = Math.min(5 + random.nextInt(10), words - written);
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < lineLength; i++) {
          String word = VOCABULARY[skewedIndex(random)];
          if (i == 0) {
            word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
          }
          line.append(i == 0 ? "" : " ").append(word);
        }
        line.append(random.nextInt(4) == 0 ? "," : ".");
        out.write(line.toString());
        out.newLine();
        written += lineLength;
        if (++linesInParagraph >= 4 + random.nextInt(6)) {
          out.newLine();
          linesInParagraph = 0;
        }
      }
    }
  }

  /** Squaring a uniform draw favours small indexes, giving frequent and rare words. */
  private static int skewedIndex(Random random) {
    double u = random.nextDouble();
    return (int) (u * u * VOCABULARY.length);
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: CorpusGenerator <output file> <words> <seed>");
      System.exit(2);
    }
    write(Path.of(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]));
  }
}
