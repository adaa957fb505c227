package io.arcon.tss.cli;

import io.arcon.tss.cli.StatementSplitter.Piece;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.lang.TssParser;
import io.arcon.tss.lang.VersionQuery;

/**
 * Runs one statement typed in the shell or given with {@code -e}: TSS statements go to the control
 * plane, {@code QUERY} runs locally over the lake. Statements are parsed here first so that a typo
 * is reported with its position even when the control plane is unreachable.
 */
final class StatementExecutor {
  private final TssClient client;
  private final String lakeOverride;

  /**
   * @param lakeOverride the lake QUERY reads, or null to ask the control plane where its lake is
   */
  StatementExecutor(TssClient client, String lakeOverride) {
    this.client = client;
    this.lakeOverride = lakeOverride;
  }

  /**
   * @throws io.arcon.tss.lang.TssSyntaxException for a malformed statement, positioned in the whole
   *     input the statement came from
   * @throws io.arcon.tss.client.TssClientException when the control plane refuses or is unreachable
   * @throws IllegalArgumentException when a QUERY cannot run (no such version, bad SQL)
   */
  TextTable execute(Piece statement) {
    if (TssParser.isQuery(statement.text())) {
      VersionQuery query = TssParser.parseQuery(statement.positioned());
      String lake = lakeOverride != null ? lakeOverride : client.serverInfo().getLake();
      return new VersionQueryRunner(lake).run(query);
    }
    TssParser.parseOne(statement.positioned());
    StatementResult result = client.execute(statement.text());
    return new TextTable(result.columns(), result.rows(), result.message());
  }
}
