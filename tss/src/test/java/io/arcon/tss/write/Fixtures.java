package io.arcon.tss.write;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A schema using every type, nested, and rows exercising nulls, empties and both window kinds. */
final class Fixtures {
  static final Instant VERSION = Instant.parse("2026-12-02T13:00:00Z");

  static final RowType ITEM = RowType.of(Field.required("x", FieldType.INT64));
  static final RowType VALUE =
      RowType.of(
          Field.required("name", FieldType.STRING),
          Field.of("count", FieldType.INT64),
          Field.of("small", FieldType.INT32),
          Field.of("ratio", FieldType.DOUBLE),
          Field.of("f", FieldType.FLOAT),
          Field.of("flag", FieldType.BOOLEAN),
          Field.of("raw", FieldType.BYTES),
          Field.of("seen", FieldType.TIMESTAMP),
          Field.of("tags", new ListType(FieldType.STRING)),
          Field.of("scores", new MapType(FieldType.STRING, FieldType.INT64)),
          Field.of(
              "nested",
              RowType.of(Field.of("a", FieldType.INT32), Field.of("items", new ListType(ITEM)))),
          Field.of("blob", FieldType.OPAQUE));
  static final StateSchema SCHEMA = new StateSchema(FieldType.STRING, VALUE);

  static List<Object> value(
      String name,
      Long count,
      List<String> tags,
      Map<String, Long> scores,
      List<Object> nested,
      OpaqueValue blob) {
    return Arrays.asList(
        name,
        count,
        count == null ? null : (int) (long) count,
        count == null ? null : count / 4.0,
        count == null ? null : (float) (count / 2.0),
        count == null ? null : count % 2 == 0,
        count == null ? null : ("raw" + count).getBytes(StandardCharsets.UTF_8),
        count == null ? null : Instant.ofEpochSecond(1_700_000_000L + count, 123_456_000),
        tags,
        scores,
        nested,
        blob);
  }

  static Map<String, Long> map(Object... kv) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Long) kv[i + 1]);
    }
    return m;
  }

  static List<StateRow> rows() {
    WindowBounds w =
        new WindowBounds(
            Instant.parse("2026-12-02T12:00:00Z"), Instant.parse("2026-12-02T12:05:00Z"));
    List<Object> nestedFull = Arrays.asList(7, List.of(List.of(1L), List.of(2L)));
    List<Object> nestedNulls = Arrays.asList(null, Arrays.asList(List.of(3L), null));
    List<StateRow> rows = new ArrayList<>();
    rows.add(
        new StateRow(
            "alice",
            null,
            value(
                "Alice",
                10L,
                List.of("a", "b"),
                map("x", 1L, "y", 2L),
                nestedFull,
                new OpaqueValue(new byte[] {0, 1, 2}, "Opaque(alice)")),
            Instant.parse("2026-12-02T12:59:59.999999Z")));
    rows.add(
        new StateRow(
            "bob",
            w,
            value("Bob", 3L, List.of(), map(), nestedNulls, new OpaqueValue(new byte[0], null)),
            Instant.parse("2026-12-02T12:04:00Z")));
    rows.add(
        new StateRow(
            "carol",
            w,
            value("Carol", null, Arrays.asList("c", null), null, null, null),
            Instant.parse("2026-12-02T12:01:00Z")));
    rows.add(new StateRow("dave", null, null, Instant.parse("2026-12-02T12:00:00Z")));
    return rows;
  }

  private Fixtures() {}
}
