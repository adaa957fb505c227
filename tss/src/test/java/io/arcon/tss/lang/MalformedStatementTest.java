package io.arcon.tss.lang;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each malformed statement must fail with exactly this position, token and message. */
class MalformedStatementTest {

  private static Arguments bad(
      String statement, int line, int column, String token, String message) {
    return Arguments.of(statement, line, column, token, message);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        bad(
            "CREATE TSS t AS\n  EXTRACT a.b\n  AT '2026-12-02 13:00'\n  FOR EACH 0 MINUTES",
            4,
            12,
            "0",
            "line 4:12: FOR EACH 0 is not a period — expected a positive number"),
        bad(
            "SHOW APPS;\n\tDROP TSS x y",
            2,
            13,
            "y",
            "line 2:13: unexpected 'y' — expected ';' or end of input"),
        bad("SHOW", 1, 5, "<EOF>", "line 1:5: unexpected end of input — expected APPS or TSS"),
        bad("SHOW FOO", 1, 6, "FOO", "line 1:6: unexpected 'FOO' — expected APPS or TSS"),
        bad(
            "SHOW APPS SHOW TSS",
            1,
            11,
            "SHOW",
            "line 1:11: unexpected 'SHOW' — expected ';' or end of input"),
        bad("DESCRIBE", 1, 9, "<EOF>", "line 1:9: unexpected end of input — expected APP or TSS"),
        bad("DESCRIBE APPS x", 1, 10, "APPS", "line 1:10: unexpected 'APPS' — expected APP or TSS"),
        bad("DESCRIBE APP", 1, 13, "<EOF>", "line 1:13: unexpected end of input — expected a name"),
        bad(
            "DESCRIBE APP a.b",
            1,
            15,
            ".",
            "line 1:15: unexpected '.' — expected ';' or end of input"),
        bad("DESCRIBE TSS 1abc", 1, 14, "1", "line 1:14: unexpected '1' — expected a name"),
        bad("DROP my_tss", 1, 6, "my_tss", "line 1:6: unexpected 'my_tss' — expected APP or TSS"),
        bad("DROP APP", 1, 9, "<EOF>", "line 1:9: unexpected end of input — expected a name"),
        bad("DROP APP ../x", 1, 10, ".", "line 1:10: unexpected '.' — expected a name"),
        bad("DROP APP a b", 1, 12, "b", "line 1:12: unexpected 'b' — expected ';' or end of input"),
        bad("DROP TSS", 1, 9, "<EOF>", "line 1:9: unexpected end of input — expected a name"),
        bad("DROP TSS a/b", 1, 11, "/", "line 1:11: unexpected '/' — expected ';' or end of input"),
        bad("DROP TSS ../etc", 1, 10, ".", "line 1:10: unexpected '.' — expected a name"),
        bad("DROP TSS 'x'", 1, 10, "'x'", "line 1:10: unexpected string 'x' — expected a name"),
        bad("DROP TSS \"x\"", 1, 10, "\"", "line 1:10: unexpected '\"' — expected a name"),
        bad("CREATE my_tss", 1, 8, "my_tss", "line 1:8: unexpected 'my_tss' — expected TSS"),
        bad(
            "CREATE TSS t EXTRACT a.b AT '2026-12-02 13:00'",
            1,
            14,
            "EXTRACT",
            "line 1:14: unexpected 'EXTRACT' — expected AS"),
        bad(
            "CREATE TSS t AS a.b AT '2026-12-02 13:00'",
            1,
            17,
            "a",
            "line 1:17: unexpected 'a' — expected EXTRACT"),
        bad(
            "CREATE TSS t AS EXTRACT AT '2026-12-02 13:00'",
            1,
            28,
            "'2026-12-02 13:00'",
            "line 1:28: unexpected string '2026-12-02 13:00' — expected '.'"),
        bad(
            "CREATE TSS t AS EXTRACT a AT '2026-12-02 13:00'",
            1,
            27,
            "AT",
            "line 1:27: unexpected 'AT' — expected '.'"),
        bad(
            "CREATE TSS t AS EXTRACT a. AT '2026-12-02 13:00'",
            1,
            31,
            "'2026-12-02 13:00'",
            "line 1:31: unexpected string '2026-12-02 13:00' — expected ',', '.', ON or AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b.c.d AT '2026-12-02 13:00'",
            1,
            30,
            ".",
            "line 1:30: unexpected '.' — expected ',', ON or AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b, AT '2026-12-02 13:00'",
            1,
            33,
            "'2026-12-02 13:00'",
            "line 1:33: unexpected string '2026-12-02 13:00' — expected '.'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b FROM x",
            1,
            29,
            "FROM",
            "line 1:29: unexpected 'FROM' — expected ',', '.', ON or AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b",
            1,
            28,
            "<EOF>",
            "line 1:28: unexpected end of input — expected ',', '.', ON or AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT",
            1,
            31,
            "<EOF>",
            "line 1:31: unexpected end of input — expected a quoted time such as '2026-12-02 13:00:00'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT 2026",
            1,
            32,
            "2026",
            "line 1:32: unexpected '2026' — expected a quoted time such as '2026-12-02 13:00:00'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00",
            1,
            32,
            "'2026-12-02 13:00",
            "line 1:32: unterminated string '2026-12-02 13:00 — expected a closing ' (write '' for a quote inside a string)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT 'tomorrow'",
            1,
            32,
            "'tomorrow'",
            "line 1:32: invalid time 'tomorrow' (not a recognised time) — expected 'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-02-30 13:00'",
            1,
            32,
            "'2026-02-30 13:00'",
            "line 1:32: invalid time '2026-02-30 13:00' (Invalid date 'FEBRUARY 30') — expected 'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 25:00'",
            1,
            32,
            "'2026-12-02 25:00'",
            "line 1:32: invalid time '2026-12-02 25:00' (Invalid value for HourOfDay (valid values 0 - 23): 25) — expected 'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02'",
            1,
            32,
            "'2026-12-02'",
            "line 1:32: invalid time '2026-12-02' (not a recognised time) — expected 'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02T13:00+25:00'",
            1,
            32,
            "'2026-12-02T13:00+25:00'",
            "line 1:32: invalid time '2026-12-02T13:00+25:00' (Zone offset hours not in valid range: value 25 is not in the range -18 to 18) — expected 'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b ON '2026-12-02 13:00'",
            1,
            32,
            "'2026-12-02 13:00'",
            "line 1:32: unexpected string '2026-12-02 13:00' — expected KEY"),
        bad(
            "CREATE TSS t AS EXTRACT a.b ON KEY alice AT '2026-12-02 13:00'",
            1,
            36,
            "alice",
            "line 1:36: unexpected 'alice' — expected a quoted key such as 'alice'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TIME 'UTC'",
            1,
            56,
            "'UTC'",
            "line 1:56: unexpected string 'UTC' — expected ZONE"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TIME ZONE 'Mars/Olympus'",
            1,
            61,
            "'Mars/Olympus'",
            "line 1:61: unknown time zone 'Mars/Olympus' — expected an IANA time zone id such as 'Europe/Stockholm' or 'UTC'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TIME ZONE 'europe/stockholm'",
            1,
            61,
            "'europe/stockholm'",
            "line 1:61: unknown time zone 'europe/stockholm' — expected 'Europe/Stockholm' (zone ids are case-sensitive)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR 5 MINUTES",
            1,
            55,
            "5",
            "line 1:55: unexpected '5' — expected EACH"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH MINUTE",
            1,
            60,
            "MINUTE",
            "line 1:60: unexpected 'MINUTE' — expected a whole number"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 5",
            1,
            61,
            "<EOF>",
            "line 1:61: unexpected end of input — expected a unit (SECONDS, MINUTES, HOURS or DAYS)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 5 WEEKS",
            1,
            62,
            "WEEKS",
            "line 1:62: unexpected 'WEEKS' — expected a unit (SECONDS, MINUTES, HOURS or DAYS)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 0 MINUTES",
            1,
            60,
            "0",
            "line 1:60: FOR EACH 0 is not a period — expected a positive number"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH -5 MINUTES",
            1,
            60,
            "-",
            "line 1:60: unexpected '-' — expected a whole number"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 1.5 HOURS",
            1,
            61,
            ".",
            "line 1:61: unexpected '.' — expected a unit (SECONDS, MINUTES, HOURS or DAYS)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 99999999999999999999 SECONDS",
            1,
            60,
            "99999999999999999999",
            "line 1:60: number 99999999999999999999 is too large — expected at most 3650 DAYS"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 3651 DAYS",
            1,
            60,
            "3651",
            "line 1:60: FOR EACH period is too long — expected at most 3650 DAYS"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' UNTIL '2026-12-02 14:00'",
            1,
            51,
            "UNTIL",
            "line 1:51: UNTIL without FOR EACH — expected FOR EACH <n> <unit> before UNTIL (a single version has no end)"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 5 MINUTES UNTIL '2026-12-02 12:00'",
            1,
            76,
            "'2026-12-02 12:00'",
            "line 1:76: UNTIL '2026-12-02 12:00' (2026-12-02T12:00:00Z) is not after AT '2026-12-02 13:00' (2026-12-02T13:00:00Z) — expected an UNTIL time later than AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 5 MINUTES UNTIL '2026-12-02 13:00'",
            1,
            76,
            "'2026-12-02 13:00'",
            "line 1:76: UNTIL '2026-12-02 13:00' (2026-12-02T13:00:00Z) is not after AT '2026-12-02 13:00' (2026-12-02T13:00:00Z) — expected an UNTIL time later than AT"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 5 MINUTES UNTIL",
            1,
            75,
            "<EOF>",
            "line 1:75: unexpected end of input — expected a quoted time such as '2026-12-02 13:00:00'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' DIFF DIFF",
            1,
            56,
            "DIFF",
            "line 1:56: unexpected 'DIFF' — expected TRANSFORM, ';' or end of input"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TRANSFORM ''",
            1,
            61,
            "''",
            "line 1:61: empty TRANSFORM SQL — expected a query over the extracted states such as 'SELECT * FROM app1.clicks'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TRANSFORM SELECT 1",
            1,
            61,
            "SELECT",
            "line 1:61: unexpected 'SELECT' — expected quoted SQL such as 'SELECT * FROM app1.clicks'"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TRANSFORM 'SELECT 1' DIFF",
            1,
            72,
            "DIFF",
            "line 1:72: unexpected 'DIFF' — expected ';' or end of input"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' DIFF FOR EACH 5 MINUTES",
            1,
            56,
            "FOR",
            "line 1:56: unexpected 'FOR' — expected TRANSFORM, ';' or end of input"),
        bad(
            "CREATE TSS t AS EXTRACT a.b, a.b AT '2026-12-02 13:00'",
            1,
            30,
            "a",
            "line 1:30: duplicate state 'a.b' — expected each state only once"),
        bad(
            "CREATE TSS t AS EXTRACT a.b, c.d, a.b AT '2026-12-02 13:00'",
            1,
            35,
            "a",
            "line 1:35: duplicate state 'a.b' — expected each state only once"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TIME ZONE 'UTC' TIME ZONE 'UTC'",
            1,
            67,
            "TIME",
            "line 1:67: unexpected 'TIME' — expected FOR, UNTIL, DIFF, TRANSFORM, ';' or end of input"),
        bad(
            "CREATE TSS my-tss AS EXTRACT a.b AT '2026-12-02 13:00'",
            1,
            14,
            "-",
            "line 1:14: unexpected '-' — expected AS"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00';;SHOW",
            1,
            56,
            "<EOF>",
            "line 1:56: unexpected end of input — expected APPS or TSS"),
        bad(
            "SELECT * FROM t",
            1,
            1,
            "SELECT",
            "line 1:1: unexpected 'SELECT' — expected SHOW, DESCRIBE, CREATE, DROP, ';' or end of input"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' TIME ZONE 'UTC' FOR EACH 1 DAY UNTIL '2026-12-01 13:00'",
            1,
            88,
            "'2026-12-01 13:00'",
            "line 1:88: UNTIL '2026-12-01 13:00' (2026-12-01T13:00:00Z) is not after AT '2026-12-02 13:00' (2026-12-02T13:00:00Z) — expected an UNTIL time later than AT"),
        bad("DESCRIBE APP é", 1, 14, "é", "line 1:14: unexpected 'é' — expected a name"),
        bad(
            "CREATE TSS t AS EXTRACT a.b AT '2026-12-02 13:00' FOR EACH 1 HOURS UNTIL '2026-12-02T14:00:00+02:00'",
            1,
            74,
            "'2026-12-02T14:00:00+02:00'",
            "line 1:74: UNTIL '2026-12-02T14:00:00+02:00' (2026-12-02T12:00:00Z) is not after AT '2026-12-02 13:00' (2026-12-02T13:00:00Z) — expected an UNTIL time later than AT"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void failsWithExactPositionAndMessage(
      String statement, int line, int column, String token, String message) {
    TssSyntaxException e = assertThrows(TssSyntaxException.class, () -> TssParser.parse(statement));
    assertAll(
        () -> assertEquals(message, e.getMessage()),
        () -> assertEquals(line, e.line()),
        () -> assertEquals(column, e.column()),
        () -> assertEquals(token, e.offendingToken()),
        () -> assertEquals(message.substring(message.indexOf(" — expected ") + 12), e.expected()));
  }
}
