package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.proto.Consistency;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Parquet file of a committed version says in its footer what it is and how exact it is: the
 * agent's files, the DIFF files the committer rewrites, and TRANSFORM results. Read back with
 * parquet-hadoop's footer reader, not with the TSS reader.
 */
class OutputMetadataEndToEndTest {
  private static final Instant T = Instant.parse("2026-12-02T13:00:00Z");
  private static final Instant T5 = T.plus(Duration.ofMinutes(5));

  @TempDir Path home;

  private static Map<String, String> footer(Path file) throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      Map<String, String> arcon = new HashMap<>();
      reader
          .getFileMetaData()
          .getKeyValueMetaData()
          .forEach(
              (k, v) -> {
                if (k.startsWith("arcon.") && !k.startsWith("arcon.tss.")) {
                  arcon.put(k, v);
                }
              });
      return arcon;
    }
  }

  private static Map<String, String> stateMeta(
      String app, String state, Instant version, String consistency) {
    return Map.of(
        "arcon.app",
        app,
        "arcon.state",
        state,
        "arcon.version",
        version.toString(),
        "arcon.consistency",
        consistency);
  }

  private Path versionDir(String tss, Instant version) {
    return home.resolve("lake").resolve(tss).resolve("version=" + version);
  }

  @Test
  void agentFilesDiffFilesAndTransformResultsCarryTheirConsistency() throws Exception {
    SyntheticApp app =
        new SyntheticApp()
            .withCounter("exact_counts", FieldType.STRING, Consistency.EXACT)
            .withCounter("cut_counts", FieldType.STRING, Consistency.WATERMARK_CUT)
            .update("exact_counts", "alice", T.minusSeconds(30), 1L)
            .update("exact_counts", "alice", T.plusSeconds(30), 2L)
            .update("cut_counts", "bob", T.minusSeconds(10), 7L);
    try (ControlPlaneServer server =
            ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
        TssAgent agent =
            TssAgent.builder("shop", app).endpoint("127.0.0.1", server.port()).start();
        TssClient client = TssClient.connect("127.0.0.1", server.port(), null)) {
      assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
      String at = "AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES UNTIL '2026-12-02 13:05:00'";
      client.execute("CREATE TSS plain AS EXTRACT shop.exact_counts, shop.cut_counts " + at + ";");
      client.execute(
          "CREATE TSS diffs AS EXTRACT shop.exact_counts, shop.cut_counts " + at + " DIFF;");
      client.execute(
          "CREATE TSS exact_only AS EXTRACT shop.exact_counts "
              + at
              + " TRANSFORM 'SELECT key, value FROM shop.exact_counts';");
      client.execute(
          "CREATE TSS mixed AS EXTRACT shop.exact_counts, shop.cut_counts "
              + at
              + " TRANSFORM 'SELECT e.key, e.value, c.value AS cut FROM shop.exact_counts e"
              + " FULL JOIN shop.cut_counts c ON e.key = c.key';");
      agent.reportWatermark(T5.plusSeconds(1));
      for (String tss : List.of("plain", "diffs", "exact_only", "mixed")) {
        for (Instant version : List.of(T, T5)) {
          Path committed = versionDir(tss, version).resolve("_COMMITTED");
          TestSupport.await(tss + "@" + version + " to commit", () -> Files.exists(committed));
        }
      }

      for (String tss : List.of("plain", "diffs")) {
        for (Instant version : List.of(T, T5)) {
          Path dir = versionDir(tss, version).resolve("shop");
          assertEquals(
              stateMeta("shop", "exact_counts", version, "exact"),
              footer(dir.resolve("exact_counts/part-0.parquet")),
              tss + "@" + version);
          assertEquals(
              stateMeta("shop", "cut_counts", version, "watermark_cut"),
              footer(dir.resolve("cut_counts/part-0.parquet")),
              tss + "@" + version);
        }
      }
      for (Instant version : List.of(T, T5)) {
        assertEquals(
            Map.of("arcon.version", version.toString(), "arcon.consistency", "exact"),
            footer(versionDir("exact_only", version).resolve("transform/part-0.parquet")));
        assertEquals(
            Map.of("arcon.version", version.toString(), "arcon.consistency", "watermark_cut"),
            footer(versionDir("mixed", version).resolve("transform/part-0.parquet")));
      }
    }
  }
}
