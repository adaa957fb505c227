package io.arcon.tss.lang;

import io.arcon.tss.lang.grammar.TssLexer;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
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

  @Override
  public void reportError(Parser recognizer, RecognitionException e) {
    Token offending =
        e.getOffendingToken() != null ? e.getOffendingToken() : recognizer.getCurrentToken();
    IntervalSet expected = e.getExpectedTokens();
    if (expected == null || expected.isNil()) {
      expected = recognizer.getExpectedTokens();
    }
    throw error(recognizer.getInputStream(), offending, expected);
  }

  @Override
  protected void reportUnwantedToken(Parser recognizer) {
    throw error(
        recognizer.getInputStream(), recognizer.getCurrentToken(), getExpectedTokens(recognizer));
  }

  @Override
  protected void reportMissingToken(Parser recognizer) {
    throw error(
        recognizer.getInputStream(), recognizer.getCurrentToken(), getExpectedTokens(recognizer));
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
