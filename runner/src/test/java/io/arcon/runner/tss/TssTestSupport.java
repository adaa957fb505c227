package io.arcon.runner.tss;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.arcon.tss.client.TssClient;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.StateInfo;
import io.arcon.tss.wire.ProtoTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Waiting for apps and versions, and reading committed versions back with DuckDB. */
final class TssTestSupport {
  private TssTestSupport() {}

  static void awaitRegistered(TssClient tss, String app) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      try {
        for (AppSummary s : tss.showApps()) {
          if (s.getName().equals(app) && s.getConnected()) {
            return;
          }
        }
      } catch (RuntimeException notYet) {
        // The embedded control plane is still starting.
      }
      Thread.sleep(100);
    }
    fail("app " + app + " did not register within 60 s");
  }

  /**
   * Waits until {@code app} reported a watermark at or after {@code millis}: the minimum over every
   * instance of its stateful transforms, so each of them has seen every input channel reach it.
   */
  static void awaitWatermark(TssClient tss, String app, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    AppSummary last = null;
    while (System.currentTimeMillis() < deadline) {
      for (AppSummary s : tss.showApps()) {
        if (s.getName().equals(app)) {
          last = s;
          if (s.hasWatermark() && ProtoTime.toInstant(s.getWatermark()).toEpochMilli() >= millis) {
            return;
          }
        }
      }
      Thread.sleep(20);
    }
    fail("app " + app + " did not report a watermark at or after " + millis + " ms: " + last);
  }

  /**
   * Waits until {@code DESCRIBE APP} shows {@code state}'s history as {@code history} ("recording":
   * the app records a watermark-cut state now that a TSS reads it).
   */
  static void awaitHistory(TssClient tss, String app, String state, String history)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    List<List<String>> rows = List.of();
    while (System.currentTimeMillis() < deadline) {
      StatementResult described = tss.execute("DESCRIBE APP " + app + ";");
      int column = described.columns().indexOf("history");
      rows = described.rows();
      for (List<String> row : rows) {
        if (row.get(0).equals(state) && row.get(column).equals(history)) {
          return;
        }
      }
      Thread.sleep(20);
    }
    fail("state " + app + "." + state + " did not show history '" + history + "': " + rows);
  }

  static StateInfo state(AppInfo info, String name) {
    return info.getStatesList().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no state " + name + " in " + info));
  }

  static Path versionDir(TssClient tss, String name, long version) {
    String lake = tss.serverInfo().getLake();
    return (lake.startsWith("file:") ? Path.of(java.net.URI.create(lake)) : Path.of(lake))
        .resolve(name)
        .resolve("version=" + Instant.ofEpochMilli(version));
  }

  static void awaitCommitted(TssClient tss, String name, long version) throws InterruptedException {
    awaitCommitted(tss, name, version, null);
  }

  /** Waits for a version's commit marker; fails at once with the job's error if it failed. */
  static void awaitCommitted(
      TssClient tss, String name, long version, org.apache.beam.sdk.PipelineResult job)
      throws InterruptedException {
    Path committed = versionDir(tss, name, version).resolve("_COMMITTED");
    long deadline = System.currentTimeMillis() + 60_000;
    while (!Files.exists(committed)) {
      if (job != null && job.getState() == org.apache.beam.sdk.PipelineResult.State.FAILED) {
        job.waitUntilFinish(); // throws the job's failure
      }
      if (System.currentTimeMillis() > deadline) {
        fail(committed + " was not written within 60 s: " + tss.describeTss(name));
      }
      Thread.sleep(100);
    }
  }

  static String parquetGlob(TssClient tss, String name, long version, String app, String state)
      throws Exception {
    awaitCommitted(tss, name, version);
    return versionDir(tss, name, version).resolve(app).resolve(state) + "/part-*.parquet";
  }

  /** The rows of one committed state file, read with DuckDB (not with our reader). */
  static List<ClickScript.Row> read(TssClient tss, String name, long version, String app, String st)
      throws Exception {
    String glob = parquetGlob(tss, name, version, app, st);
    List<ClickScript.Row> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT key, value, epoch_ms(updated_at), epoch_ms(version) FROM read_parquet('"
                    + glob
                    + "') ORDER BY key")) {
      while (rs.next()) {
        rows.add(new ClickScript.Row(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
      }
    }
    return rows;
  }

  static String consistencyOf(TssClient tss, String name, long version, String app, String st)
      throws Exception {
    String glob = parquetGlob(tss, name, version, app, st);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT decode(value) FROM parquet_kv_metadata('"
                    + glob
                    + "') WHERE decode(key) = 'arcon.consistency'")) {
      assertTrue(rs.next(), "no arcon.consistency metadata in " + glob);
      return rs.getString(1);
    }
  }
}
