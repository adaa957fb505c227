package io.arcon.tss.write;

import io.arcon.tss.model.Names;
import io.arcon.tss.model.StateSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Runs a TSS {@code TRANSFORM}: SQL over the states of one version, in an embedded, private,
 * in-memory DuckDB.
 *
 * <p><b>Tables.</b> Each extracted state is a table named {@code app.state}: DuckDB schema {@code
 * app}, table {@code state}, with the columns of the version files ({@code key, window_start,
 * window_end, value, updated_at, version}; nested values as STRUCT/LIST/MAP). A state named {@code
 * Transform.stateId} keeps its dot inside the table name, so SQL quotes it: {@code
 * app1."CountClicks.count"}. Map keys of the table arguments are {@code "app.state"}, split at the
 * first dot.
 *
 * <p><b>Confinement.</b> The tables are loaded first; then external access is disabled ({@code
 * enable_external_access=false}, extension auto-install/auto-load off) and the configuration
 * locked, before the user's SQL is even bound. DuckDB then refuses {@code read_parquet}, {@code
 * read_csv}, {@code glob}, {@code COPY}, {@code ATTACH}, {@code INSTALL}/{@code LOAD} and any
 * attempt to re-enable access. The only path left writable is the private temporary result file
 * (DuckDB's {@code allowed_paths}), written by our own {@code COPY}. The SQL must also be exactly
 * one SELECT query (WITH, UNION, VALUES included) — checked with DuckDB's own parser.
 *
 * <p><b>Result.</b> The query's rows are written as Parquet by DuckDB (ZSTD) and put at the output
 * path (any Hadoop file system) via a hidden temporary name and a rename. A {@code version} column
 * holding the version time is appended unless the query already returns a column named {@code
 * version}.
 */
public final class DuckDbTransform {
  /** DuckDB worker threads per transform; the runtime shares its cores with the pipelines. */
  static final int THREADS = 2;

  private DuckDbTransform() {}

  /** A column of a TRANSFORM's result: its name and DuckDB type (e.g. {@code BIGINT}). */
  public record ResultColumn(String name, String type) {}

  /** What {@link #run} produced. */
  public record Result(String path, long rowCount, List<ResultColumn> columns) {}

  /**
   * Checks a TRANSFORM at CREATE: the SQL is bound against empty tables of the given schemas, with
   * external access already disabled.
   *
   * @param tables the states the TSS extracts, keyed {@code "app.state"}
   * @return the result columns the query will produce
   * @throws TransformSqlException with DuckDB's message if the SQL is not acceptable
   */
  public static List<ResultColumn> check(String sql, Map<String, StateSchema> tables) {
    Objects.requireNonNull(tables, "tables");
    checkNotBlank(sql);
    Path work = tempDir();
    try {
      ParquetVersionWriter writer =
          new ParquetVersionWriter(
              HadoopFs.defaultConfiguration(), CompressionCodecName.UNCOMPRESSED);
      Map<String, List<String>> files = new LinkedHashMap<>();
      for (Map.Entry<String, StateSchema> e : tables.entrySet()) {
        TableName name = TableName.parse(e.getKey());
        Path file = work.resolve("empty").resolve(name.app()).resolve(name.state() + ".parquet");
        // Empty files of the real writer give the tables exactly the types run() will see.
        writer.writeVersion(file.toString(), e.getValue(), List.of(), Instant.EPOCH);
        files.put(e.getKey(), List.of(file.toString()));
      }
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
        loadTables(c, files);
        lockDown(c, null);
        return bind(c, sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Embedded DuckDB failed: " + e.getMessage(), e);
    } finally {
      deleteRecursively(work);
    }
  }

  /**
   * Runs a TRANSFORM over one version.
   *
   * @param parquetFilesPerTable for each table {@code "app.state"}, the version's Parquet files of
   *     that state (Hadoop path strings; at least one per table — the writer always writes a file,
   *     even for an empty state, so the schema is known)
   * @param outputParquetPath where the result goes, e.g. {@code
   *     <lake>/<tss>/version=<T>/transform/part-0.parquet}
   * @param version the version time, for the appended {@code version} column
   */
  public static Result run(
      String sql,
      Map<String, List<String>> parquetFilesPerTable,
      String outputParquetPath,
      Instant version) {
    return run(
        sql, parquetFilesPerTable, outputParquetPath, version, HadoopFs.defaultConfiguration());
  }

  /** {@link #run(String, Map, String, Instant)} with an explicit Hadoop configuration. */
  public static Result run(
      String sql,
      Map<String, List<String>> parquetFilesPerTable,
      String outputParquetPath,
      Instant version,
      Configuration conf) {
    return run(sql, parquetFilesPerTable, outputParquetPath, version, Map.of(), conf);
  }

  /**
   * {@link #run(String, Map, String, Instant, Configuration)} that also writes {@code metadata}
   * into the result file's footer (e.g. {@link OutputMetadata#ofTransform}).
   */
  public static Result run(
      String sql,
      Map<String, List<String>> parquetFilesPerTable,
      String outputParquetPath,
      Instant version,
      Map<String, String> metadata,
      Configuration conf) {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(parquetFilesPerTable, "parquetFilesPerTable");
    Objects.requireNonNull(outputParquetPath, "outputParquetPath");
    Objects.requireNonNull(version, "version");
    checkNotBlank(sql);
    Path work = tempDir();
    try {
      Map<String, List<String>> local = new LinkedHashMap<>();
      int n = 0;
      for (Map.Entry<String, List<String>> e : parquetFilesPerTable.entrySet()) {
        if (e.getValue() == null || e.getValue().isEmpty()) {
          throw new IllegalArgumentException(
              "Table "
                  + e.getKey()
                  + " has no Parquet file; pass at least one (an empty state still has a"
                  + " row-less file with its schema)");
        }
        List<String> paths = new ArrayList<>();
        for (String file : e.getValue()) {
          paths.add(localCopy(file, work.resolve("in").resolve("f" + n++ + ".parquet"), conf));
        }
        local.put(e.getKey(), paths);
      }
      Path resultFile = work.resolve("result.parquet");
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
        loadTables(c, local);
        lockDown(c, resultFile);
        List<ResultColumn> columns = bind(c, sql);
        // One statement, so a trailing ';' would only break the COPY wrapper below.
        sql = stripTrailingSemicolons(sql);
        boolean hasVersion =
            columns.stream().anyMatch(col -> col.name().equalsIgnoreCase(Columns.VERSION));
        String query =
            hasVersion
                ? sql
                : "SELECT *, TIMESTAMPTZ '"
                    + DateTimeFormatter.ISO_INSTANT.format(version)
                    + "' AS "
                    + Columns.VERSION
                    + " FROM (\n"
                    + sql
                    + "\n)";
        long rows;
        try (Statement s = c.createStatement()) {
          // The newline keeps a trailing "-- comment" in the user's SQL from eating the ')'.
          rows =
              s.executeLargeUpdate(
                  "COPY (\n"
                      + query
                      + "\n) TO "
                      + literal(resultFile.toString())
                      + " (FORMAT parquet, COMPRESSION zstd"
                      + kvMetadata(metadata)
                      + ")");
        } catch (SQLException e) {
          throw refused(e);
        }
        if (!hasVersion) {
          columns = new ArrayList<>(columns);
          columns.add(new ResultColumn(Columns.VERSION, "TIMESTAMP WITH TIME ZONE"));
        }
        String finalPath = publish(resultFile, outputParquetPath, conf);
        return new Result(finalPath, rows, List.copyOf(columns));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Embedded DuckDB failed: " + e.getMessage(), e);
    } finally {
      deleteRecursively(work);
    }
  }

  /** DuckDB's COPY option for footer key-value metadata: {@code , KV_METADATA {'k': 'v'}}. */
  private static String kvMetadata(Map<String, String> metadata) {
    if (metadata.isEmpty()) {
      return "";
    }
    StringBuilder option = new StringBuilder(", KV_METADATA {");
    String separator = "";
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      option
          .append(separator)
          .append(literal(e.getKey()))
          .append(": ")
          .append(literal(e.getValue()));
      separator = ", ";
    }
    return option.append('}').toString();
  }

  private static String stripTrailingSemicolons(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  private static void checkNotBlank(String sql) {
    if (sql == null || sql.isBlank()) {
      throw new TransformSqlException("TRANSFORM SQL is empty; give one SELECT query");
    }
  }

  /** Creates schema {@code app} and table {@code state} per entry, from its Parquet files. */
  private static void loadTables(Connection c, Map<String, List<String>> files)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      for (Map.Entry<String, List<String>> e : files.entrySet()) {
        TableName name = TableName.parse(e.getKey());
        s.execute("CREATE SCHEMA IF NOT EXISTS " + ident(name.app()));
        StringBuilder list = new StringBuilder("[");
        for (String f : e.getValue()) {
          list.append(list.length() > 1 ? ", " : "").append(literal(f));
        }
        list.append(']');
        s.execute(
            "CREATE TABLE "
                + ident(name.app())
                + "."
                + ident(name.state())
                + " AS SELECT * FROM read_parquet("
                + list
                // The `version=<T>` directory of the path is not a column: the file's own is.
                + ", hive_partitioning = false)");
      }
    }
  }

  /**
   * Disables every way out of the database before the user's SQL is bound. Order matters: the lock
   * must come last, and {@code allowed_paths} must be set before access is disabled.
   */
  private static void lockDown(Connection c, Path writableResult) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET threads = " + THREADS);
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET autoinstall_known_extensions = false");
      s.execute("SET autoload_known_extensions = false");
      s.execute("SET allow_community_extensions = false");
      if (writableResult != null) {
        s.execute("SET allowed_paths = [" + literal(writableResult.toString()) + "]");
      }
      s.execute("SET enable_external_access = false");
      s.execute("SET lock_configuration = true");
    }
  }

  /** Checks that the SQL is a single SELECT and binds it; returns its result columns. */
  private static List<ResultColumn> bind(Connection c, String sql) {
    try (PreparedStatement p =
        c.prepareStatement(
            "SELECT (j->>'error')::BOOLEAN, j->>'error_type', j->>'error_message',"
                + " json_array_length(j->'statements') FROM (SELECT json_serialize_sql(?::VARCHAR)::JSON AS j)")) {
      p.setString(1, sql);
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        if (rs.getBoolean(1)) {
          String type = rs.getString(2);
          String message = rs.getString(3);
          if ("not implemented".equals(type)) {
            throw new TransformSqlException(
                "TRANSFORM SQL must be a single SELECT query (WITH, UNION and VALUES are fine);"
                    + " DuckDB says: "
                    + message);
          }
          // Parse errors: fall through so prepare() reports them with DuckDB's line pointer.
        } else if (rs.getLong(4) != 1) {
          throw new TransformSqlException(
              "TRANSFORM SQL must be exactly one SELECT query, but it holds "
                  + rs.getLong(4)
                  + " statements; remove the extra ';'-separated statements");
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Embedded DuckDB failed: " + e.getMessage(), e);
    }
    try (PreparedStatement p = c.prepareStatement(sql)) {
      ResultSetMetaData md = p.getMetaData();
      List<ResultColumn> columns = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        columns.add(new ResultColumn(md.getColumnName(i), md.getColumnTypeName(i)));
      }
      return columns;
    } catch (SQLException e) {
      throw refused(e);
    }
  }

  private static TransformSqlException refused(SQLException e) {
    String msg = e.getMessage() == null ? e.toString() : e.getMessage().strip();
    if (msg.contains("Permission Error")) {
      return new TransformSqlException(
          "TRANSFORM SQL may read only the version's tables (app.state); it tried to reach"
              + " files, databases or extensions outside them. DuckDB refused: "
              + msg,
          e);
    }
    return new TransformSqlException("TRANSFORM SQL refused by DuckDB: " + msg, e);
  }

  /** A local path DuckDB can read: the file itself if local, else a copy in {@code dest}. */
  private static String localCopy(String file, Path dest, Configuration conf) {
    org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(file);
    String scheme = src.toUri().getScheme();
    if (scheme == null || scheme.equals("file")) {
      return src.toUri().getPath();
    }
    try {
      Files.createDirectories(dest.getParent());
      FileSystem fs = HadoopFs.fileSystem(src, conf);
      try (java.io.InputStream in = fs.open(src)) {
        Files.copy(in, dest);
      }
      return dest.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot fetch " + file + " for the TRANSFORM: " + e.getMessage(), e);
    }
  }

  /** Moves the local result to the (possibly remote) output path via a hidden temporary name. */
  private static String publish(Path local, String output, Configuration conf) {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(output);
    FileSystem fs = HadoopFs.fileSystem(target, conf);
    target = fs.makeQualified(target);
    org.apache.hadoop.fs.Path temp =
        new org.apache.hadoop.fs.Path(
            target.getParent(), "." + target.getName() + ".inprogress-" + UUID.randomUUID());
    try {
      fs.mkdirs(target.getParent());
      // Streams the bytes itself: FileSystem.copyFromLocalFile insists on the checksummed
      // LocalFileSystem, which the lake configuration replaces with the raw one.
      try (java.io.OutputStream out = fs.create(temp, true)) {
        Files.copy(local, out);
      }
      if (fs.exists(target) && !fs.delete(target, false)) {
        throw new IOException("Cannot replace existing file " + target);
      }
      if (!fs.rename(temp, target)) {
        throw new IOException("Cannot rename " + temp + " to " + target);
      }
      return target.toString();
    } catch (IOException e) {
      try {
        fs.delete(temp, false);
      } catch (IOException ignored) {
        // The hidden name keeps a leftover out of readers' view.
      }
      throw new UncheckedIOException(
          "Cannot write the TRANSFORM result to " + output + ": " + e.getMessage(), e);
    }
  }

  static String ident(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("arcon-tss-transform-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a temporary directory: " + e.getMessage(), e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // Temp files only; the OS cleans the temp directory eventually.
    }
  }

  /** {@code "app.state"} split at the first dot, both parts validated as lake names. */
  record TableName(String app, String state) {
    static TableName parse(String qualified) {
      int dot = qualified == null ? -1 : qualified.indexOf('.');
      if (dot < 0) {
        throw new IllegalArgumentException(
            "Table '" + qualified + "' must be named app.state (e.g. app1.clicks)");
      }
      return new TableName(
          Names.requireValid(qualified.substring(0, dot), "app"),
          Names.requireValidState(qualified.substring(dot + 1)));
    }
  }
}
