package io.arcon.tss.server;

import io.arcon.tss.model.StateSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A TSS as its CREATE TSS defined it. Each state carries the schema it had when the TSS was
 * created: every version is written with that schema, whatever the app registers later.
 *
 * @param name the TSS name (a checked identifier)
 * @param statement the CREATE TSS text as written, for DESCRIBE TSS
 * @param states the extracted states, in EXTRACT order
 * @param keyLiteral ON KEY, or null for every key
 * @param at the first version time
 * @param timeZone the TIME ZONE the statement's times were written in, or null
 * @param every FOR EACH, or null for a single version at AT
 * @param until UNTIL (inclusive), or null for an unbounded schedule
 * @param diff whether versions after the first hold only the changes
 * @param transformSql TRANSFORM, or null
 * @param createdAt when the TSS was created; null in a catalog written without it
 */
record TssSpec(
    String name,
    String statement,
    List<ExtractedState> states,
    String keyLiteral,
    Instant at,
    String timeZone,
    Duration every,
    Instant until,
    boolean diff,
    String transformSql,
    Instant createdAt) {

  TssSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(at, "at");
    statement = statement == null ? "" : statement;
    states = List.copyOf(states);
  }

  /** One state of one app that the TSS extracts. */
  record ExtractedState(String app, String state, StateSchema schema) {
    /** {@code app.state}: the table name TRANSFORM SQL uses. */
    String table() {
      return app + "." + state;
    }
  }

  /** App -> its states in this TSS, in EXTRACT order. */
  Map<String, List<String>> statesByApp() {
    Map<String, List<String>> byApp = new LinkedHashMap<>();
    for (ExtractedState ref : states) {
      byApp.computeIfAbsent(ref.app(), a -> new ArrayList<>()).add(ref.state());
    }
    byApp.replaceAll((app, names) -> List.copyOf(names));
    return Collections.unmodifiableMap(byApp);
  }

  /** Table ({@code app.state}) -> schema, in EXTRACT order: what TRANSFORM SQL reads. */
  Map<String, StateSchema> tables() {
    Map<String, StateSchema> tables = new LinkedHashMap<>();
    for (ExtractedState ref : states) {
      tables.put(ref.table(), ref.schema());
    }
    return tables;
  }
}
