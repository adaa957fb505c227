package io.arcon.tss.cli;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.VersionQuery;
import io.arcon.tss.model.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the shell's {@code QUERY tss [VERSION 't' | LATEST] <sql>} with embedded DuckDB over one
 * committed version of a TSS in a local lake.
 *
 * <p>Each state of the version is a view {@code app.state} (schema {@code app}; a state named
 * {@code Transform.stateId} is {@code app."Transform.stateId"}) over its {@code part-*.parquet}
 * files, and a TRANSFORM result is the view {@code transform}. Versions without {@code _COMMITTED}
 * do not exist for QUERY. The paths are those of {@link LakeLayout}.
 *
 * <p>The SQL is confined twice: it must be a read-only SELECT (checked with DuckDB's own parser via
 * {@code json_serialize_sql}, which only accepts SELECT statements — so no COPY, ATTACH or EXPLAIN
 * ANALYZE), and DuckDB runs with external access disabled except for exactly the version's Parquet
 * files, with its configuration locked.
 */
final class VersionQueryRunner {
  private final Path lake;
  private final LakeLayout layout;

  /**
   * @param lake the lake as the control plane reports it: a local directory or a {@code file:} URI
   */
  VersionQueryRunner(String lake) {
    this.lake = localLake(lake);
    this.layout = LakeLayout.local(this.lake);
  }

  static Path localLake(String lake) {
    if (lake == null || lake.isBlank()) {
      throw new IllegalArgumentException("the lake location is empty; pass --lake DIR");
    }
    if (lake.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") && !lake.matches("^[A-Za-z]:\\\\.*")) {
      URI uri = URI.create(lake);
      if (!"file".equals(uri.getScheme())) {
        throw new IllegalArgumentException(
            "QUERY reads local lakes only, but the lake is "
                + lake
                + "; query its Parquet files with a tool for that file system,"
                + " or pass --lake DIR if the lake is mounted locally");
      }
      return Path.of(uri);
    }
    return Path.of(lake).toAbsolutePath().normalize();
  }

  /** The committed versions of a TSS, oldest first. */
  List<Instant> committedVersions(String tss) {
    Path dir = local(layout.tssDir(tss));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    TreeMap<Instant, Path> versions = new TreeMap<>();
    try (Stream<Path> children = Files.list(dir)) {
      // A name that is no version=<T> was not written by the control plane: not ours to show.
      children.forEach(
          child ->
              LakeLayout.versionOf(child.getFileName().toString())
                  .filter(version -> Files.exists(child.resolve(LakeLayout.COMMITTED)))
                  .ifPresent(version -> versions.put(version, child)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    return List.copyOf(versions.keySet());
  }

  TextTable run(VersionQuery query) {
    List<Instant> committed = committedVersions(query.tss());
    if (committed.isEmpty() && !Files.isDirectory(local(layout.tssDir(query.tss())))) {
      throw new IllegalArgumentException(
          "unknown TSS '"
              + query.tss()
              + "': the lake "
              + lake
              + " holds nothing of it; SHOW TSS lists the TSSs");
    }
    if (committed.isEmpty()) {
      throw new IllegalArgumentException(
          "TSS "
              + query.tss()
              + " has no committed version in "
              + lake
              + "; DESCRIBE TSS "
              + query.tss()
              + " shows what its versions wait for");
    }
    Instant version =
        query.version() == null ? committed.get(committed.size() - 1) : query.version();
    if (!committed.contains(version)) {
      throw new IllegalArgumentException(
          "version "
              + version
              + " of TSS "
              + query.tss()
              + " is not committed; committed versions: "
              + describe(committed));
    }
    List<Table> tables = tables(local(layout.versionDir(query.tss(), version)));
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      requireSelect(connection, query.sql());
      confine(connection, tables);
      try (Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery(query.sql())) {
        TextTable result = read(rs);
        return new TextTable(
            result.columns(), result.rows(), "version " + version + " of " + query.tss());
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("QUERY failed: " + firstLine(e.getMessage()), e);
    }
  }

  /** A view to create: {@code schema} null for the TRANSFORM result. */
  record Table(String schema, String name, List<Path> files) {
    String qualified() {
      return schema == null ? quote(name) : quote(schema) + "." + quote(name);
    }
  }

  static List<Table> tables(Path versionDir) {
    List<Table> tables = new ArrayList<>();
    for (Path appDir : children(versionDir)) {
      String app = appDir.getFileName().toString();
      if (!Files.isDirectory(appDir) || !Names.isValid(app)) {
        continue;
      }
      List<Path> direct = parts(appDir);
      if (app.equals(LakeLayout.TRANSFORM) && !direct.isEmpty()) {
        tables.add(new Table(null, LakeLayout.TRANSFORM, direct));
        continue;
      }
      for (Path stateDir : children(appDir)) {
        String state = stateDir.getFileName().toString();
        List<Path> files = parts(stateDir);
        if (Files.isDirectory(stateDir) && Names.isValidState(state) && !files.isEmpty()) {
          tables.add(new Table(app, state, files));
        }
      }
    }
    return tables;
  }

  private static Path local(String uri) {
    return Path.of(URI.create(uri));
  }

  private static List<Path> children(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private static List<Path> parts(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    return children(dir).stream()
        .filter(p -> LakeLayout.isPartFile(p.getFileName().toString()))
        .filter(Files::isRegularFile)
        .toList();
  }

  /** Refuses anything DuckDB cannot serialize as a SELECT: only reads may run. */
  private static void requireSelect(Connection connection, String sql) throws SQLException {
    try (PreparedStatement check =
        connection.prepareStatement(
            "SELECT json_extract_string(j, '$.error_message') FROM"
                + " (SELECT json_serialize_sql(?::VARCHAR) AS j) WHERE json_extract(j, '$.error')::BOOLEAN")) {
      check.setString(1, sql);
      try (ResultSet rs = check.executeQuery()) {
        if (rs.next()) {
          throw new IllegalArgumentException(
              "QUERY runs read-only SQL (SELECT, WITH, FROM, SHOW, DESCRIBE, SUMMARIZE): "
                  + rs.getString(1));
        }
      }
    }
  }

  private static void confine(Connection connection, List<Table> tables) throws SQLException {
    try (Statement s = connection.createStatement()) {
      List<String> allowed = new ArrayList<>();
      for (Table table : tables) {
        if (table.schema() != null) {
          s.execute("CREATE SCHEMA IF NOT EXISTS " + quote(table.schema()));
        }
        String files =
            table.files().stream()
                .map(p -> literal(p.toString()))
                .collect(Collectors.joining(", ", "[", "]"));
        // Without hive_partitioning = false DuckDB would read the `version=<T>` directory of the
        // path as a column and put it in place of the file's own `version` (a timestamp with time
        // zone) or of a TRANSFORM's column of that name.
        s.execute(
            "CREATE VIEW "
                + table.qualified()
                + " AS SELECT * FROM read_parquet("
                + files
                + ", hive_partitioning = false)");
        table.files().forEach(p -> allowed.add(literal(p.toString())));
      }
      s.execute(
          "SET allowed_paths = " + allowed.stream().collect(Collectors.joining(", ", "[", "]")));
      s.execute("SET enable_external_access = false");
      s.execute("SET lock_configuration = true");
    }
  }

  private static TextTable read(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<String> columns = new ArrayList<>();
    for (int c = 1; c <= meta.getColumnCount(); c++) {
      columns.add(meta.getColumnLabel(c));
    }
    List<List<String>> rows = new ArrayList<>();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int c = 1; c <= columns.size(); c++) {
        Object value = rs.getObject(c);
        // An instant prints as one, in UTC like every time of TSS (DuckDB's own text drops zero
        // seconds and uses the session's zone).
        row.add(
            value == null
                ? null
                : value instanceof java.time.OffsetDateTime instant
                    ? instant.toInstant().toString()
                    : rs.getString(c));
      }
      rows.add(row);
    }
    return new TextTable(columns, rows, "");
  }

  private static String describe(List<Instant> versions) {
    int shown = Math.min(versions.size(), 10);
    String list =
        versions.subList(versions.size() - shown, versions.size()).stream()
            .map(Instant::toString)
            .collect(Collectors.joining(", "));
    return versions.size() > shown ? "... " + list : list;
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static String firstLine(String message) {
    return Optional.ofNullable(message).flatMap(m -> m.lines().findFirst()).orElse("unknown error");
  }
}
