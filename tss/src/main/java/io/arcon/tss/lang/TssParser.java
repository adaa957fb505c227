package io.arcon.tss.lang;

import io.arcon.tss.lang.grammar.TssLexer;
import io.arcon.tss.lang.grammar.TssParser.QueryHeadContext;
import io.arcon.tss.lang.grammar.TssParser.StatementContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;

/**
 * Parses TSS statements (DESIGN.md §6) into the typed AST. Every failure, syntactic or semantic, is
 * a {@link TssSyntaxException} with the position of the offending token; nothing is ever printed.
 *
 * <p>Thread-safe: every call uses its own lexer and parser.
 */
public final class TssParser {
  private TssParser() {}

  /**
   * Parses a script of statements separated (or terminated) by {@code ;}; empty statements and
   * {@code --} comments are allowed.
   *
   * @return the statements in order; empty for a script with none
   */
  public static List<Statement> parse(String script) {
    Objects.requireNonNull(script, "script");
    Parsing p = new Parsing(script);
    AstBuilder builder = new AstBuilder(p.input);
    List<Statement> statements = new ArrayList<>();
    for (StatementContext ctx : p.parser.script().statement()) {
      statements.add(builder.visit(ctx));
    }
    return statements;
  }

  /** Parses exactly one statement; a trailing {@code ;} is optional. */
  public static Statement parseOne(String statement) {
    Objects.requireNonNull(statement, "statement");
    Parsing p = new Parsing(statement);
    return new AstBuilder(p.input).visit(p.parser.singleStatement().statement());
  }

  /**
   * Parses the CLI's {@code QUERY tss [VERSION 't' [TIME ZONE 'z'] | LATEST] <sql>}. Everything
   * after the head is the SQL, verbatim (a trailing {@code ;} removed).
   */
  public static VersionQuery parseQuery(String text) {
    Objects.requireNonNull(text, "text");
    Parsing p = new Parsing(text);
    QueryHeadContext head = p.parser.queryHead();
    int sqlStart = head.getStop().getStopIndex() + 1;
    String sql =
        sqlStart >= p.input.size()
            ? ""
            : p.input.getText(Interval.of(sqlStart, p.input.size() - 1)).strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    Token next = p.tokens.LT(1);
    return new AstBuilder(p.input).versionQuery(head, sql, next);
  }

  /** Whether {@code text} starts with the CLI's QUERY keyword (after blanks and comments). */
  public static boolean isQuery(String text) {
    TssLexer lexer = new TssLexer(CharStreams.fromString(text));
    lexer.removeErrorListeners();
    return lexer.nextToken().getType() == TssLexer.QUERY;
  }

  /** One lexer/parser pair wired to fail fast with {@link TssSyntaxException}. */
  private static final class Parsing {
    final CharStream input;
    final CommonTokenStream tokens;
    final io.arcon.tss.lang.grammar.TssParser parser;

    Parsing(String text) {
      input = CharStreams.fromString(text);
      TssLexer lexer = new TssLexer(input);
      lexer.removeErrorListeners();
      // The lexer has a catch-all token, so this only guards against a future grammar change.
      lexer.addErrorListener(
          new BaseErrorListener() {
            @Override
            public void syntaxError(
                Recognizer<?, ?> recognizer,
                Object offendingSymbol,
                int line,
                int charPositionInLine,
                String msg,
                RecognitionException e) {
              throw new TssSyntaxException(
                  "unreadable input (" + msg + ")",
                  line,
                  charPositionInLine + 1,
                  "",
                  "letters, digits, quotes and ; , .");
            }
          });
      tokens = new CommonTokenStream(lexer);
      parser = new io.arcon.tss.lang.grammar.TssParser(tokens);
      parser.removeErrorListeners();
      parser.setErrorHandler(new ThrowingErrorStrategy());
    }
  }
}
