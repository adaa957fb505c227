package io.arcon.tss.lang;

import io.arcon.tss.lang.grammar.TssLexer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Turns ANTLR token types into the words a user reads in an error message: keywords by their name
 * ({@code AT}), punctuation quoted ({@code ';'}), and literals by their role ({@code a quoted time
 * such as '2026-12-02 13:00'}).
 */
final class ExpectedTokens {
  private static final int[] UNITS = {
    TssLexer.SECOND, TssLexer.SECONDS, TssLexer.MINUTE, TssLexer.MINUTES,
    TssLexer.HOUR, TssLexer.HOURS, TssLexer.DAY, TssLexer.DAYS
  };

  private ExpectedTokens() {}

  /**
   * Describes an expected-token set.
   *
   * @param previousType the type of the token before the offending one (gives literals their role),
   *     or {@link Token#INVALID_TYPE} at the start of input
   */
  static String describe(IntervalSet expected, int previousType) {
    List<Integer> types = new ArrayList<>(expected.toList());
    types.remove(Integer.valueOf(Token.EPSILON));
    // Keywords double as names; when a name fits, listing every keyword would only be noise.
    if (types.contains(TssLexer.IDENT)) {
      types.removeIf(ExpectedTokens::isKeyword);
    }
    // Statement ends read best last: "TRANSFORM, ';' or end of input".
    for (int end : new int[] {TssLexer.SEMI, Token.EOF}) {
      if (types.remove(Integer.valueOf(end))) {
        types.add(end);
      }
    }
    Set<String> words = new LinkedHashSet<>();
    boolean unitsDone = false;
    for (int type : types) {
      if (isUnit(type)) {
        if (!unitsDone) {
          words.add("a unit (SECONDS, MINUTES, HOURS or DAYS)");
          unitsDone = true;
        }
      } else {
        words.add(describe(type, previousType));
      }
    }
    return join(new ArrayList<>(words));
  }

  private static String describe(int type, int previousType) {
    return switch (type) {
      case Token.EOF -> "end of input";
      case TssLexer.SEMI -> "';'";
      case TssLexer.COMMA -> "','";
      case TssLexer.DOT -> "'.'";
      case TssLexer.IDENT -> "a name";
      case TssLexer.INTEGER -> "a whole number";
      case TssLexer.STRING -> stringRole(previousType);
      default ->
          isKeyword(type)
              ? TssLexer.VOCABULARY.getSymbolicName(type)
              : TssLexer.VOCABULARY.getDisplayName(type);
    };
  }

  private static String stringRole(int previousType) {
    return switch (previousType) {
      case TssLexer.AT, TssLexer.UNTIL, TssLexer.VERSION ->
          "a quoted time such as " + "'2026-12-02 13:00:00'";
      case TssLexer.ZONE -> "a quoted time zone such as 'Europe/Stockholm'";
      case TssLexer.KEY -> "a quoted key such as 'alice'";
      case TssLexer.TRANSFORM -> "quoted SQL such as 'SELECT * FROM app1.clicks'";
      default -> "a quoted string";
    };
  }

  static boolean isKeyword(int type) {
    return type >= TssLexer.SHOW && type <= TssLexer.LATEST;
  }

  private static boolean isUnit(int type) {
    for (int unit : UNITS) {
      if (unit == type) {
        return true;
      }
    }
    return false;
  }

  /** {@code A}, {@code A or B}, {@code A, B or C}. */
  static String join(List<String> words) {
    if (words.isEmpty()) {
      return "nothing more";
    }
    if (words.size() == 1) {
      return words.get(0);
    }
    return String.join(", ", words.subList(0, words.size() - 1))
        + " or "
        + words.get(words.size() - 1);
  }
}
