package io.arcon.tss.write;

import io.arcon.tss.model.ChangeOp;
import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateChange;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Reads a file written by {@link ParquetVersionWriter} back into {@link StateRow}s (or {@link
 * StateChange}s for DIFF files), using parquet-hadoop's example {@link Group} reader and the TSS
 * types stored in the file footer. Used for DIFF (the previous full version) and by tests.
 */
public final class ParquetVersionReader {
  private final Configuration conf;

  public ParquetVersionReader() {
    this(HadoopFs.defaultConfiguration());
  }

  public ParquetVersionReader(Configuration conf) {
    this.conf = Objects.requireNonNull(conf, "conf");
  }

  /**
   * A version file's contents: its schema, version time, rows with their ops, and its footer's
   * key-value metadata (e.g. {@link OutputMetadata}'s entries).
   */
  public record VersionFile(
      StateSchema schema,
      Instant version,
      boolean diff,
      List<StateChange> changes,
      Map<String, String> metadata) {
    /** The rows (for a full version, all of them; for a DIFF file, the changed cells). */
    public List<StateRow> rows() {
      return changes.stream().map(StateChange::row).toList();
    }
  }

  /** The footer's key-value metadata of any Parquet file, without reading its rows. */
  public Map<String, String> readMetadata(String file) {
    try (ParquetFileReader footer =
        ParquetFileReader.open(HadoopInputFile.fromPath(new Path(file), conf))) {
      return Map.copyOf(footer.getFileMetaData().getKeyValueMetaData());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open Parquet file " + file + ": " + e.getMessage(), e);
    }
  }

  public VersionFile read(String file) {
    Path path = new Path(file);
    Map<String, String> meta;
    try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
      meta = footer.getFileMetaData().getKeyValueMetaData();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open Parquet file " + file + ": " + e.getMessage(), e);
    }
    String keyType = meta.get(StateRowWriteSupport.META_KEY_TYPE);
    String valueType = meta.get(StateRowWriteSupport.META_VALUE_TYPE);
    if (keyType == null || valueType == null) {
      throw new IllegalArgumentException(
          file
              + " is not a TSS version file (its footer has no "
              + StateRowWriteSupport.META_KEY_TYPE
              + "); only files written by ParquetVersionWriter can be read back as state rows");
    }
    StateSchema schema = new StateSchema(FieldType.parse(keyType), FieldType.parse(valueType));
    boolean diff = Boolean.parseBoolean(meta.get(StateRowWriteSupport.META_DIFF));
    Instant version = Instant.parse(meta.get(StateRowWriteSupport.META_VERSION));
    List<StateChange> changes = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), path).withConf(conf).build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        Object key = field(g, Columns.KEY, schema.keyType());
        Instant start = (Instant) field(g, Columns.WINDOW_START, FieldType.TIMESTAMP);
        Instant end = (Instant) field(g, Columns.WINDOW_END, FieldType.TIMESTAMP);
        Object value = field(g, Columns.VALUE, schema.valueType());
        Instant updatedAt = (Instant) field(g, Columns.UPDATED_AT, FieldType.TIMESTAMP);
        WindowBounds window = start == null ? null : new WindowBounds(start, end);
        ChangeOp op =
            diff
                ? ChangeOp.valueOf(g.getString(Columns.OP, 0).toUpperCase(Locale.ROOT))
                : ChangeOp.INSERT;
        changes.add(new StateChange(op, new StateRow(key, window, value, updatedAt)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read Parquet file " + file + ": " + e.getMessage(), e);
    }
    return new VersionFile(schema, version, diff, changes, Map.copyOf(meta));
  }

  private static Object field(Group g, String name, FieldType type) {
    return g.getFieldRepetitionCount(name) == 0 ? null : value(g, name, type);
  }

  private static Object value(Group g, String name, FieldType type) {
    if (type instanceof PrimitiveType p) {
      switch (p) {
        case STRING:
          return g.getString(name, 0);
        case BYTES:
          return g.getBinary(name, 0).getBytes();
        case INT32:
          return g.getInteger(name, 0);
        case INT64:
          return g.getLong(name, 0);
        case FLOAT:
          return g.getFloat(name, 0);
        case DOUBLE:
          return g.getDouble(name, 0);
        case BOOLEAN:
          return g.getBoolean(name, 0);
        case TIMESTAMP:
          return Micros.toInstant(g.getLong(name, 0));
        default:
          throw new IllegalStateException("Unmapped primitive type " + p);
      }
    }
    Group sub = g.getGroup(name, 0);
    if (type instanceof OpaqueType) {
      String readable =
          sub.getFieldRepetitionCount(Columns.OPAQUE_READABLE) == 0
              ? null
              : sub.getString(Columns.OPAQUE_READABLE, 0);
      return new OpaqueValue(sub.getBinary(Columns.OPAQUE_BYTES, 0).getBytes(), readable);
    }
    if (type instanceof ListType l) {
      int n = sub.getFieldRepetitionCount("list");
      List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(field(sub.getGroup("list", i), "element", l.element()));
      }
      return list;
    }
    if (type instanceof MapType m) {
      int n = sub.getFieldRepetitionCount("key_value");
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        Group kv = sub.getGroup("key_value", i);
        map.put(value(kv, "key", m.key()), field(kv, "value", m.value()));
      }
      return map;
    }
    RowType r = (RowType) type;
    List<Object> values = new ArrayList<>(r.fields().size());
    for (Field f : r.fields()) {
      values.add(field(sub, f.name(), f.type()));
    }
    return values;
  }
}
