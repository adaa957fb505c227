package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionDiffTest {
  @TempDir Path dir;

  static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");
  static final WindowBounds W1 = new WindowBounds(T0, T0.plusSeconds(60));
  static final WindowBounds W2 = new WindowBounds(T0.plusSeconds(60), T0.plusSeconds(120));
  static final WindowBounds W3 = new WindowBounds(T0.plusSeconds(120), T0.plusSeconds(180));

  static StateRow row(Object key, WindowBounds w, Object value, int second) {
    return new StateRow(key, w, value, T0.plusSeconds(second));
  }

  @Test
  void insertUpdateDeleteAndUnchangedRowsAbsent() {
    List<StateRow> previous =
        List.of(
            row("a", null, List.of(1L, 2L), 1),
            row("b", null, List.of(5L), 2),
            row("c", W1, List.of(), 3),
            row("c", W2, List.of(7L), 4));
    List<StateRow> current =
        List.of(
            row("a", null, new ArrayList<>(List.of(1L, 2L)), 9), // equal value, new time: unchanged
            row("b", null, List.of(5L, 6L), 10), // update
            row("c", W2, List.of(7L), 4), // unchanged
            row("c", W3, List.of(8L), 11), // new window of c: insert
            row("d", null, List.of(), 12)); // insert
    List<StateChange> diff = VersionDiff.compute(previous, current);
    assertEquals(4, diff.size(), diff.toString());
    assertEquals(ChangeOp.UPDATE, diff.get(0).op());
    assertEquals("b", diff.get(0).row().key());
    assertEquals(List.of(5L, 6L), diff.get(0).row().value());
    assertEquals(ChangeOp.INSERT, diff.get(1).op());
    assertEquals("c", diff.get(1).row().key());
    assertEquals(ChangeOp.INSERT, diff.get(2).op());
    assertEquals("d", diff.get(2).row().key());
    StateChange delete = diff.get(3);
    assertEquals(ChangeOp.DELETE, delete.op());
    assertEquals("c", delete.row().key());
    assertEquals(W1, delete.row().window());
    assertNull(delete.row().value());
    assertEquals(T0.plusSeconds(3), delete.row().updatedAt(), "tombstone keeps last update time");
  }

  @Test
  void byteArrayKeysAndValuesCompareByContent() {
    List<StateRow> previous = List.of(row(new byte[] {1}, null, new byte[] {9}, 1));
    List<StateRow> same = List.of(row(new byte[] {1}, null, new byte[] {9}, 1));
    assertTrue(VersionDiff.compute(previous, same).isEmpty());
    List<StateChange> changed =
        VersionDiff.compute(previous, List.of(row(new byte[] {1}, null, new byte[] {8}, 2)));
    assertEquals(1, changed.size());
    assertEquals(ChangeOp.UPDATE, changed.get(0).op());
    assertArrayEquals(new byte[] {8}, (byte[]) changed.get(0).row().value());
  }

  @Test
  void firstVersionIsAllInserts() {
    List<StateChange> diff = VersionDiff.compute(List.of(), List.of(row("a", null, 1L, 1)));
    assertEquals(List.of(new StateChange(ChangeOp.INSERT, row("a", null, 1L, 1))), diff);
  }

  @Test
  void duplicateCellIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                VersionDiff.compute(List.of(), List.of(row("a", W1, 1L, 1), row("a", W1, 2L, 2))));
    assertTrue(
        e.getMessage().startsWith("The current version has two rows for key a in window"),
        e.getMessage());
  }

  @Test
  void diffFileHasOpColumnReadableByDuckDbAndParquetReader() throws Exception {
    StateSchema schema = new StateSchema(FieldType.STRING, new ListType(FieldType.INT64));
    List<StateRow> previous =
        List.of(row("a", null, List.of(1L), 1), row("b", null, List.of(2L), 2));
    List<StateRow> current =
        List.of(row("a", null, List.of(1L, 1L), 5), row("c", W1, List.of(), 6));
    List<StateChange> diff = VersionDiff.compute(previous, current);
    String file = dir.resolve("diff/part-00000.parquet").toString();
    Instant version = T0.plusSeconds(60);
    new ParquetVersionWriter().writeDiff(file, schema, diff, version);

    ParquetVersionReader.VersionFile back = new ParquetVersionReader().read(file);
    assertTrue(back.diff());
    assertEquals(
        List.of(ChangeOp.UPDATE, ChangeOp.INSERT, ChangeOp.DELETE),
        back.changes().stream().map(StateChange::op).toList());
    assertNull(back.changes().get(2).row().value());

    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT op, key, value IS NULL, epoch_us(updated_at) FROM read_parquet(?)"
                    + " ORDER BY key")) {
      ps.setString(1, file);
      List<String> got = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          got.add(
              rs.getString(1)
                  + " "
                  + rs.getString(2)
                  + " "
                  + rs.getBoolean(3)
                  + " "
                  + rs.getLong(4));
        }
      }
      assertEquals(
          List.of(
              "update a false " + Micros.of(T0.plusSeconds(5)),
              "delete b true " + Micros.of(T0.plusSeconds(2)),
              "insert c false " + Micros.of(T0.plusSeconds(6))),
          got);
    }
  }
}
