package io.arcon.tss.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated input must only ever produce a statement or a {@link TssSyntaxException} with
 * a sane position: never another exception, never a crash.
 */
class ParserFuzzTest {
  private static final int CASES = 10_000;

  private static final List<String> VALID =
      List.of(
          "SHOW APPS;",
          "SHOW TSS;",
          "DESCRIBE APP clicks_app;",
          "DESCRIBE TSS my_tss;",
          "DROP TSS my_tss;",
          "CREATE TSS my_tss AS EXTRACT app1.clicks, app2.steps ON KEY 'alice'"
              + " AT '2026-12-02 13:00:00' TIME ZONE 'Europe/Stockholm'"
              + " FOR EACH 5 MINUTES UNTIL '2026-12-02 14:00:00' DIFF"
              + " TRANSFORM 'SELECT * FROM app1.clicks JOIN app2.steps USING (key)';",
          "CREATE TSS t AS EXTRACT a.T.s AT '2026-03-29T02:30:00+01:00' FOR EACH 1 DAY;",
          "QUERY my_tss VERSION '2026-12-02 13:00' SELECT * FROM app1.clicks;");

  private static final String[] FRAGMENTS = {
    "SHOW",
    "APPS",
    "DESCRIBE",
    "APP",
    "CREATE",
    "TSS",
    "AS",
    "EXTRACT",
    "ON",
    "KEY",
    "AT",
    "TIME",
    "ZONE",
    "FOR",
    "EACH",
    "UNTIL",
    "DIFF",
    "TRANSFORM",
    "DROP",
    "SECONDS",
    "DAY",
    "QUERY",
    "VERSION",
    "LATEST",
    ";",
    ",",
    ".",
    "'",
    "''",
    "'2026-12-02 13:00'",
    "'Europe/Stockholm'",
    "'2026-02-30 13:00'",
    "'Bad/Zone'",
    "0",
    "5",
    "99999999999999999999999",
    "a",
    "b1",
    "_x",
    "--",
    "\n",
    "/",
    "..",
    "-",
    "*",
    "\"",
    "é",
    "\uD83D\uDE00",
    "\uD800",
    "\u0000",
    "\t"
  };

  @Test
  void randomAndMutatedStatementsOnlyEverFailWithSyntaxErrors() {
    Random random = new Random(20261202L);
    int parsed = 0;
    int rejected = 0;
    for (int i = 0; i < CASES; i++) {
      String input =
          switch (i % 4) {
            case 0 -> randomChars(random);
            case 1 -> randomFragments(random);
            case 2 -> mutateTokens(random, VALID.get(random.nextInt(VALID.size())));
            default -> mutateChars(random, VALID.get(random.nextInt(VALID.size())));
          };
      boolean ok = true;
      ok &= survives(input, TssParser::parse);
      ok &= survives(input, TssParser::parseOne);
      ok &= survives(input, s -> TssParser.isQuery(s) ? TssParser.parseQuery(s) : null);
      if (ok) {
        parsed++;
      } else {
        rejected++;
      }
    }
    assertEquals(CASES, parsed + rejected);
    // Guards against a generator so broken that everything parses or nothing reaches the parser.
    assertTrue(rejected > CASES / 2, "rejected " + rejected);
    assertTrue(parsed > 50, "parsed " + parsed);
  }

  /** Returns whether the input parsed; fails the test on anything but a TssSyntaxException. */
  private static boolean survives(String input, Function<String, Object> parser) {
    try {
      parser.apply(input);
      return true;
    } catch (TssSyntaxException e) {
      assertTrue(e.line() >= 1 && e.column() >= 1, () -> "bad position for " + describe(input));
      assertNotNull(e.offendingToken());
      assertTrue(!e.expected().isBlank(), () -> "no expectation for " + describe(input));
      assertTrue(e.getMessage().startsWith("line " + e.line() + ":" + e.column() + ": "));
      return false;
    } catch (Throwable t) {
      fail("input " + describe(input) + " crashed the parser with " + t, t);
      return false;
    }
  }

  private static String describe(String input) {
    StringBuilder b = new StringBuilder("\"");
    input
        .codePoints()
        .forEach(c -> b.append(c < 32 || c > 126 ? String.format("\\u%04x", c) : (char) c));
    return b.append('"').toString();
  }

  private static String randomChars(Random random) {
    int length = random.nextInt(60);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(10);
      if (kind < 6) {
        b.append((char) (32 + random.nextInt(95)));
      } else if (kind < 8) {
        b.append(" ;',.-\n'".charAt(random.nextInt(8)));
      } else {
        b.appendCodePoint(random.nextInt(0x10FFFF + 1) & ~0x800);
      }
    }
    return b.toString();
  }

  private static String randomFragments(Random random) {
    int length = random.nextInt(20);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]).append(random.nextBoolean() ? " " : "");
    }
    return b.toString();
  }

  /** Deletes, duplicates, swaps or replaces whitespace-separated tokens of a valid statement. */
  private static String mutateTokens(Random random, String valid) {
    List<String> tokens = new ArrayList<>(List.of(valid.split(" ")));
    int mutations = 1 + random.nextInt(3);
    for (int m = 0; m < mutations && !tokens.isEmpty(); m++) {
      int i = random.nextInt(tokens.size());
      switch (random.nextInt(4)) {
        case 0 -> tokens.remove(i);
        case 1 -> tokens.add(i, tokens.get(i));
        case 2 -> {
          int j = random.nextInt(tokens.size());
          String t = tokens.get(i);
          tokens.set(i, tokens.get(j));
          tokens.set(j, t);
        }
        default -> tokens.set(i, FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
      }
    }
    return String.join(" ", tokens);
  }

  /** Deletes, inserts or replaces single characters of a valid statement. */
  private static String mutateChars(Random random, String valid) {
    StringBuilder b = new StringBuilder(valid);
    int mutations = 1 + random.nextInt(3);
    for (int m = 0; m < mutations && b.length() > 0; m++) {
      int i = random.nextInt(b.length());
      char c = (char) (32 + random.nextInt(95));
      switch (random.nextInt(3)) {
        case 0 -> b.deleteCharAt(i);
        case 1 -> b.insert(i, c);
        default -> b.setCharAt(i, c);
      }
    }
    return b.toString();
  }
}
