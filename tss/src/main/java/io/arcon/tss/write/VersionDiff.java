package io.arcon.tss.write;

import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.Values;
import io.arcon.tss.model.WindowBounds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Computes the rows of a DIFF version: what changed between two full versions of one state, cell by
 * cell, a cell being {@code (key, window)}.
 *
 * <ul>
 *   <li>{@link ChangeOp#INSERT}: the cell is in the current version only; the current row.
 *   <li>{@link ChangeOp#UPDATE}: the cell is in both and its value differs (compared structurally:
 *       {@code byte[]} by content, lists, rows and maps element-wise); the current row. A cell
 *       rewritten with an equal value is unchanged, even if its {@code updated_at} moved.
 *   <li>{@link ChangeOp#DELETE}: the cell is in the previous version only; a tombstone with the key
 *       and window, value {@code null} and the <em>previous</em> row's {@code updated_at}. The
 *       deletion itself happened at some event time in {@code [previous version, this version)}
 *       that the state does not record; keeping the last known update time keeps the rule that
 *       every row of a version has {@code updated_at} before the version time.
 * </ul>
 *
 * <p>Output order: inserts and updates in the order of {@code current}, then deletes in the order
 * of {@code previous}. The first version of a DIFF TSS has no previous version: pass an empty
 * {@code previous} and every row is an insert.
 */
public final class VersionDiff {
  private VersionDiff() {}

  public static List<StateChange> compute(Iterable<StateRow> previous, Iterable<StateRow> current) {
    Objects.requireNonNull(previous, "previous");
    Objects.requireNonNull(current, "current");
    Map<CellKey, StateRow> before = index(previous, "previous");
    Map<CellKey, StateRow> after = index(current, "current");
    List<StateChange> changes = new ArrayList<>();
    for (Map.Entry<CellKey, StateRow> e : after.entrySet()) {
      StateRow old = before.get(e.getKey());
      StateRow now = e.getValue();
      if (old == null) {
        changes.add(new StateChange(ChangeOp.INSERT, now));
      } else if (!Values.deepEquals(old.value(), now.value())) {
        changes.add(new StateChange(ChangeOp.UPDATE, now));
      }
    }
    for (Map.Entry<CellKey, StateRow> e : before.entrySet()) {
      if (!after.containsKey(e.getKey())) {
        StateRow old = e.getValue();
        changes.add(
            new StateChange(
                ChangeOp.DELETE, new StateRow(old.key(), old.window(), null, old.updatedAt())));
      }
    }
    return changes;
  }

  private static Map<CellKey, StateRow> index(Iterable<StateRow> rows, String which) {
    Map<CellKey, StateRow> map = new LinkedHashMap<>();
    for (StateRow row : rows) {
      CellKey cell = new CellKey(row.key(), row.window());
      if (map.put(cell, row) != null) {
        throw new IllegalArgumentException(
            "The "
                + which
                + " version has two rows for key "
                + row.key()
                + " in window "
                + (row.window() == null ? "global" : row.window())
                + "; a version holds one row per (key, window)");
      }
    }
    return map;
  }

  /** A cell identity with structural equality on the key (keys may be byte[] or nested). */
  private static final class CellKey {
    private final Object key;
    private final WindowBounds window;
    private final int hash;

    CellKey(Object key, WindowBounds window) {
      this.key = key;
      this.window = window;
      this.hash = 31 * Values.deepHashCode(key) + Objects.hashCode(window);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CellKey other
          && hash == other.hash
          && Objects.equals(window, other.window)
          && Values.deepEquals(key, other.key);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
