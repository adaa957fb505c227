package io.arcon.tss.lang;

import io.arcon.tss.model.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code CREATE TSS name AS EXTRACT app.state, ... [ON KEY 'k'] AT 't' [TIME ZONE 'z'] [FOR EACH n
 * unit [UNTIL 't']] [DIFF] [TRANSFORM 'sql']}.
 *
 * <p>Times are already resolved to UTC instants (see {@link TimeLiterals}); {@code timeZone} keeps
 * the zone id as written for display.
 *
 * @param name the TSS name
 * @param states the extracted states, in the order written, without duplicates
 * @param keyLiteral the {@code ON KEY} literal (unescaped), or null to extract every key
 * @param at the first version time
 * @param timeZone the IANA zone id as written, or null for UTC
 * @param every the period between versions, or null for a single version
 * @param until the last version time (inclusive; versions are at {@code at + k*every <= until}), or
 *     null for an unbounded periodic TSS
 * @param diff whether versions after the first hold only changed rows
 * @param transformSql the DuckDB SQL of {@code TRANSFORM} (unescaped), or null
 * @param text the statement text as written, without the terminating {@code ;}
 */
public record CreateTss(
    String name,
    List<StateRef> states,
    String keyLiteral,
    Instant at,
    String timeZone,
    Duration every,
    Instant until,
    boolean diff,
    String transformSql,
    String text)
    implements Statement {
  public CreateTss {
    Names.requireValid(name, "TSS");
    if (states == null || states.isEmpty()) {
      throw new IllegalArgumentException("CREATE TSS needs at least one state: EXTRACT app.state");
    }
    states = List.copyOf(states);
    if (at == null) {
      throw new IllegalArgumentException("CREATE TSS needs a version time: AT '<time>'");
    }
    if (every != null && (every.isNegative() || every.isZero())) {
      throw new IllegalArgumentException("FOR EACH must be a positive period, got " + every);
    }
    if (until != null && every == null) {
      throw new IllegalArgumentException("UNTIL needs FOR EACH: a single version has no end time");
    }
    if (until != null && !until.isAfter(at)) {
      throw new IllegalArgumentException("UNTIL " + until + " must be after AT " + at);
    }
  }
}
