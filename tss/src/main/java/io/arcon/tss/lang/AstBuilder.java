package io.arcon.tss.lang;

import io.arcon.tss.lang.grammar.TssBaseVisitor;
import io.arcon.tss.lang.grammar.TssLexer;
import io.arcon.tss.lang.grammar.TssParser.CreateTssContext;
import io.arcon.tss.lang.grammar.TssParser.DescribeContext;
import io.arcon.tss.lang.grammar.TssParser.DropContext;
import io.arcon.tss.lang.grammar.TssParser.IdentifierContext;
import io.arcon.tss.lang.grammar.TssParser.QueryHeadContext;
import io.arcon.tss.lang.grammar.TssParser.ShowContext;
import io.arcon.tss.lang.grammar.TssParser.StateRefContext;
import io.arcon.tss.lang.grammar.TssParser.StatementContext;
import io.arcon.tss.lang.grammar.TssParser.TimeZoneContext;
import io.arcon.tss.lang.grammar.TssParser.UnitContext;
import io.arcon.tss.model.Names;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;

/**
 * Builds the typed AST from a parse tree and performs the checks that the grammar cannot express,
 * reporting them with the position of the token at fault.
 */
final class AstBuilder extends TssBaseVisitor<Statement> {
  /** Longer periods make no sense for state snapshots and risk overflow in schedule arithmetic. */
  static final Duration MAX_PERIOD = Duration.ofDays(3650);

  private final CharStream input;

  AstBuilder(CharStream input) {
    this.input = input;
  }

  @Override
  public Statement visitStatement(StatementContext ctx) {
    return visit(ctx.getChild(0));
  }

  @Override
  public Statement visitShow(ShowContext ctx) {
    return ctx.apps != null ? new ShowApps() : new ShowTss();
  }

  @Override
  public Statement visitDescribe(DescribeContext ctx) {
    return ctx.app != null ? new DescribeApp(name(ctx.app)) : new DescribeTss(name(ctx.tss));
  }

  @Override
  public Statement visitDrop(DropContext ctx) {
    return ctx.app != null ? new DropApp(name(ctx.app)) : new DropTss(name(ctx.tss));
  }

  @Override
  public Statement visitCreateTss(CreateTssContext ctx) {
    String tssName = name(ctx.name);
    List<StateRef> states = new ArrayList<>();
    Set<StateRef> seen = new HashSet<>();
    for (StateRefContext ref : ctx.stateRef()) {
      String state =
          ref.second == null ? name(ref.first) : name(ref.first) + "." + name(ref.second);
      StateRef stateRef = new StateRef(name(ref.app), state);
      if (!seen.add(stateRef)) {
        throw semantic(
            ref.getStart(), "duplicate state '" + stateRef + "'", "each state only once");
      }
      states.add(stateRef);
    }

    String key = ctx.onKey() == null ? null : unquote(ctx.onKey().key);

    String zoneId = null;
    ZoneId zone = null;
    if (ctx.timeZone() != null) {
      zoneId = unquote(ctx.timeZone().zone);
      zone = zone(ctx.timeZone());
    }
    Instant at = time(ctx.at, zone);

    Duration every = null;
    if (ctx.forEach() != null) {
      every = period(ctx.forEach().count, ctx.forEach().unit());
    }

    Instant until = null;
    if (ctx.untilClause() != null) {
      Token untilKeyword = ctx.untilClause().getStart();
      if (every == null) {
        throw semantic(
            untilKeyword,
            "UNTIL without FOR EACH",
            "FOR EACH <n> <unit> before UNTIL (a single version has no end)");
      }
      until = time(ctx.untilClause().until, zone);
      if (!until.isAfter(at)) {
        throw semantic(
            ctx.untilClause().until,
            "UNTIL "
                + ctx.untilClause().until.getText()
                + " ("
                + until
                + ") is not after AT "
                + ctx.at.getText()
                + " ("
                + at
                + ")",
            "an UNTIL time later than AT");
      }
    }

    String sql = null;
    if (ctx.transform() != null) {
      sql = unquote(ctx.transform().sql);
      if (sql.isBlank()) {
        throw semantic(
            ctx.transform().sql,
            "empty TRANSFORM SQL",
            "a query over the extracted states such as 'SELECT * FROM app1.clicks'");
      }
    }

    return new CreateTss(
        tssName, states, key, at, zoneId, every, until, ctx.diff != null, sql, text(ctx));
  }

  /** Builds the CLI's version query from its head and the raw SQL that follows it. */
  VersionQuery versionQuery(QueryHeadContext head, String sql, Token sqlStart) {
    if (sql.isBlank()) {
      throw semantic(
          sqlStart,
          "missing SQL",
          "SQL over the version's states such as SELECT * FROM app1.clicks");
    }
    Instant version = null;
    if (head.version != null) {
      ZoneId zone = head.timeZone() == null ? null : zone(head.timeZone());
      version = time(head.version, zone);
    }
    return new VersionQuery(name(head.name), version, sql);
  }

  private static ZoneId zone(TimeZoneContext ctx) {
    String id = unquote(ctx.zone);
    return TimeLiterals.zone(id)
        .orElseThrow(
            () ->
                semantic(
                    ctx.zone,
                    "unknown time zone '" + id + "'",
                    TimeLiterals.suggestZone(id)
                        .map(z -> "'" + z + "' (zone ids are case-sensitive)")
                        .orElse("an IANA time zone id such as 'Europe/Stockholm' or 'UTC'")));
  }

  private static Instant time(Token literal, ZoneId zone) {
    String text = unquote(literal);
    try {
      return TimeLiterals.resolve(text, zone);
    } catch (DateTimeException e) {
      throw semantic(
          literal,
          "invalid time '" + text + "' (" + e.getMessage() + ")",
          TimeLiterals.ACCEPTED_FORMS);
    }
  }

  private static Duration period(Token count, UnitContext unit) {
    long n;
    try {
      n = Long.parseLong(count.getText());
    } catch (NumberFormatException e) {
      throw semantic(count, "number " + count.getText() + " is too large", "at most 3650 DAYS");
    }
    if (n == 0) {
      throw semantic(count, "FOR EACH 0 is not a period", "a positive number");
    }
    ChronoUnit chronoUnit =
        switch (unit.getStart().getType()) {
          case TssLexer.SECOND, TssLexer.SECONDS -> ChronoUnit.SECONDS;
          case TssLexer.MINUTE, TssLexer.MINUTES -> ChronoUnit.MINUTES;
          case TssLexer.HOUR, TssLexer.HOURS -> ChronoUnit.HOURS;
          // DAY is exactly 24 hours, not a calendar day: versions stay evenly spaced in UTC even
          // across daylight-saving changes of the statement's TIME ZONE.
          case TssLexer.DAY, TssLexer.DAYS -> ChronoUnit.DAYS;
          default -> throw new IllegalStateException("grammar and unit mapping disagree: " + unit);
        };
    // Compare in the unit itself so that huge counts cannot overflow Duration arithmetic.
    if (n > MAX_PERIOD.getSeconds() / chronoUnit.getDuration().getSeconds()) {
      throw semantic(count, "FOR EACH period is too long", "at most 3650 DAYS");
    }
    return Duration.of(n, chronoUnit);
  }

  private String text(ParserRuleContext ctx) {
    return input.getText(Interval.of(ctx.getStart().getStartIndex(), ctx.getStop().getStopIndex()));
  }

  /** The content of a single-quoted literal, with {@code ''} turned back into {@code '}. */
  static String unquote(Token literal) {
    String text = literal.getText();
    return text.substring(1, text.length() - 1).replace("''", "'");
  }

  /**
   * The text of a name, which becomes a directory or file name in the lake and the control plane's
   * home: refused at its position if longer than {@link Names#MAX_LENGTH}.
   */
  private static String name(IdentifierContext identifier) {
    String text = identifier.getText();
    if (text.length() > Names.MAX_LENGTH) {
      throw semantic(
          identifier.getStart(),
          "name of " + text.length() + " characters is too long",
          "a name of at most " + Names.MAX_LENGTH + " characters");
    }
    return text;
  }

  static TssSyntaxException semantic(Token at, String problem, String expected) {
    return new TssSyntaxException(
        problem, at.getLine(), at.getCharPositionInLine() + 1, at.getText(), expected);
  }
}
