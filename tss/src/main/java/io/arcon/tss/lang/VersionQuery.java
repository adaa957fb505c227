package io.arcon.tss.lang;

import io.arcon.tss.model.Names;
import java.time.Instant;

/**
 * The CLI's {@code QUERY tss [VERSION 't' [TIME ZONE 'z'] | LATEST] <sql>}: DuckDB SQL over one
 * committed version of a TSS, whose states are the tables {@code app.state}. Not a control-plane
 * {@link Statement}: it runs in the CLI, over the version's committed Parquet files only.
 *
 * @param tss the TSS name
 * @param version the version time, or null for the latest committed version
 * @param sql the SQL as written
 */
public record VersionQuery(String tss, Instant version, String sql) {
  public VersionQuery {
    Names.requireValid(tss, "TSS");
    if (sql == null || sql.isBlank()) {
      throw new IllegalArgumentException("QUERY needs SQL, e.g. QUERY my_tss SELECT * FROM a.s");
    }
  }
}
