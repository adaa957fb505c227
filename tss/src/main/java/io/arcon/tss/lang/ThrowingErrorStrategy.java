package io.arcon.tss.lang;

import io.arcon.tss.lang.grammar.TssLexer;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.atn.ATNState;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Stops at the first syntax error with a {@link TssSyntaxException}. ANTLR's default strategy would
 * print to stderr and try to repair the input; a statement that was repaired by guessing must never
 * be executed, and the first error is the one the user needs.
 *
 * <p>Extends {@link DefaultErrorStrategy} to keep its {@code sync} bookkeeping, which makes the
 * expected-token set include everything that may follow optional clauses (so a bad token after
 * {@code EXTRACT a.b} lists {@code ','}, {@code ON} and {@code AT}, not just {@code AT}).
 */
final class ThrowingErrorStrategy extends DefaultErrorStrategy {
  /**
   * Tokens that optional clauses passed over at the current position would have accepted. When an
   * error is detected after leaving such clauses (e.g. at the {@code ;} expected after a CREATE),
   * ANTLR's own expected set no longer contains them, yet they are what the user may have meant.
   */
  private IntervalSet skippedAlternatives = new IntervalSet();

  private int skippedAlternativesAt = -1;

  @Override
  public void sync(Parser recognizer) {
    int index = recognizer.getInputStream().index();
    if (index != skippedAlternativesAt) {
      skippedAlternatives = new IntervalSet();
      skippedAlternativesAt = index;
    }
    ATNState state = recognizer.getInterpreter().atn.states.get(recognizer.getState());
    skippedAlternatives.addAll(recognizer.getATN().nextTokens(state));
    super.sync(recognizer);
  }

  private IntervalSet withSkipped(Parser recognizer, Token offending, IntervalSet expected) {
    if (offending.getTokenIndex() != skippedAlternativesAt) {
      return expected;
    }
    IntervalSet all = new IntervalSet();
    all.addAll(expected);
    all.addAll(skippedAlternatives);
    all.remove(Token.EPSILON);
    return all;
  }

  @Override
  public void reportError(Parser recognizer, RecognitionException e) {
    Token offending =
        e.getOffendingToken() != null ? e.getOffendingToken() : recognizer.getCurrentToken();
    IntervalSet expected = e.getExpectedTokens();
    if (expected == null || expected.isNil()) {
      expected = recognizer.getExpectedTokens();
    }
    throw error(
        recognizer.getInputStream(), offending, withSkipped(recognizer, offending, expected));
  }

  @Override
  protected void reportUnwantedToken(Parser recognizer) {
    Token offending = recognizer.getCurrentToken();
    throw error(
        recognizer.getInputStream(),
        offending,
        withSkipped(recognizer, offending, getExpectedTokens(recognizer)));
  }

  @Override
  protected void reportMissingToken(Parser recognizer) {
    Token offending = recognizer.getCurrentToken();
    throw error(
        recognizer.getInputStream(),
        offending,
        withSkipped(recognizer, offending, getExpectedTokens(recognizer)));
  }

  static TssSyntaxException error(TokenStream tokens, Token offending, IntervalSet expected) {
    int previousType = Token.INVALID_TYPE;
    // Tokens on the skip channel never reach the stream, so index - 1 is the previous real token.
    if (offending.getTokenIndex() > 0) {
      previousType = tokens.get(offending.getTokenIndex() - 1).getType();
    }
    if (offending.getType() == TssLexer.UNTERMINATED_STRING) {
      return new TssSyntaxException(
          "unterminated string " + abbreviate(offending.getText()),
          offending.getLine(),
          offending.getCharPositionInLine() + 1,
          offending.getText(),
          "a closing ' (write '' for a quote inside a string)");
    }
    return new TssSyntaxException(
        unexpected(offending),
        offending.getLine(),
        offending.getCharPositionInLine() + 1,
        offending.getType() == Token.EOF ? "<EOF>" : offending.getText(),
        ExpectedTokens.describe(expected, previousType));
  }

  private static String unexpected(Token token) {
    return switch (token.getType()) {
      case Token.EOF -> "unexpected end of input";
      case TssLexer.STRING -> "unexpected string " + abbreviate(token.getText());
      default -> "unexpected '" + abbreviate(token.getText()) + "'";
    };
  }

  /** Keeps a long literal from drowning the message. */
  static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
