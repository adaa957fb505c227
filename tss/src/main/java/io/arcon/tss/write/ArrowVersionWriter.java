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
import io.arcon.tss.model.Values;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * Writes the rows of one state at one version as an Arrow IPC stream (schema: {@link
 * ArrowSchemas#fileSchema}), for in-memory consumers. Rows go out in record batches of {@code
 * batchSize} rows; the stream is not closed (the caller owns it).
 */
public final class ArrowVersionWriter {
  private final int batchSize;

  public ArrowVersionWriter() {
    this(4096);
  }

  public ArrowVersionWriter(int batchSize) {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("Arrow batch size must be positive, got " + batchSize);
    }
    this.batchSize = batchSize;
  }

  /** Writes a full version; returns the number of rows written. */
  public long writeVersion(
      OutputStream out, StateSchema schema, Iterable<StateRow> rows, Instant version) {
    Objects.requireNonNull(rows, "rows");
    Iterator<StateRow> it = rows.iterator();
    return write(
        out,
        schema,
        version,
        false,
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public StateChange next() {
            return new StateChange(ChangeOp.INSERT, it.next());
          }
        });
  }

  /** Writes a DIFF version (with the {@code op} column); returns the number of rows written. */
  public long writeDiff(
      OutputStream out, StateSchema schema, Iterable<StateChange> changes, Instant version) {
    Objects.requireNonNull(changes, "changes");
    return write(out, schema, version, true, changes.iterator());
  }

  private long write(
      OutputStream out,
      StateSchema schema,
      Instant version,
      boolean diff,
      Iterator<StateChange> rows) {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(version, "version");
    long versionMicros = Micros.of(version);
    long count = 0;
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root =
            VectorSchemaRoot.create(ArrowSchemas.fileSchema(schema, diff), allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
      writer.start();
      List<FieldVector> v = root.getFieldVectors();
      do {
        root.clear();
        root.allocateNew();
        int n = 0;
        while (n < batchSize && rows.hasNext()) {
          StateChange change = rows.next();
          StateRow row = change.row();
          try {
            Values.check(schema.keyType(), row.key(), true, "key");
            Values.check(schema.valueType(), row.value(), true, "value");
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "Row " + count + " does not fit the state schema: " + e.getMessage(), e);
          }
          set(v.get(0), n, schema.keyType(), row.key());
          set(v.get(1), n, FieldType.TIMESTAMP, row.window() == null ? null : row.window().start());
          set(v.get(2), n, FieldType.TIMESTAMP, row.window() == null ? null : row.window().end());
          set(v.get(3), n, schema.valueType(), row.value());
          set(v.get(4), n, FieldType.TIMESTAMP, row.updatedAt());
          ((TimeStampMicroTZVector) v.get(5)).setSafe(n, versionMicros);
          if (diff) {
            ((VarCharVector) v.get(6))
                .setSafe(n, change.op().columnValue().getBytes(StandardCharsets.UTF_8));
          }
          n++;
          count++;
        }
        root.setRowCount(n);
        // An empty stream still carries one empty batch, so readers see the schema in use.
        if (n > 0 || count == 0) {
          writer.writeBatch();
        }
      } while (rows.hasNext());
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException("Writing the Arrow stream failed: " + e.getMessage(), e);
    }
    return count;
  }

  /** Sets index {@code i} of {@code vector} to {@code value} (of {@code type}), or null. */
  private static void set(ValueVector vector, int i, FieldType type, Object value) {
    if (value == null) {
      setNull(vector, i);
      return;
    }
    if (type instanceof PrimitiveType p) {
      switch (p) {
        case STRING ->
            ((VarCharVector) vector).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
        case BYTES -> ((VarBinaryVector) vector).setSafe(i, (byte[]) value);
        case INT32 -> ((IntVector) vector).setSafe(i, (Integer) value);
        case INT64 -> ((BigIntVector) vector).setSafe(i, (Long) value);
        case FLOAT -> ((Float4Vector) vector).setSafe(i, (Float) value);
        case DOUBLE -> ((Float8Vector) vector).setSafe(i, (Double) value);
        case BOOLEAN -> ((BitVector) vector).setSafe(i, (Boolean) value ? 1 : 0);
        case TIMESTAMP -> ((TimeStampMicroTZVector) vector).setSafe(i, Micros.of((Instant) value));
      }
    } else if (type instanceof OpaqueType) {
      OpaqueValue o = (OpaqueValue) value;
      StructVector s = (StructVector) vector;
      s.setIndexDefined(i);
      set(s.getChild(Columns.OPAQUE_BYTES), i, FieldType.BYTES, o.bytes());
      set(s.getChild(Columns.OPAQUE_READABLE), i, FieldType.STRING, o.readable());
    } else if (type instanceof MapType m) {
      // MapVector is a ListVector of non-null "entries" structs.
      ListVector list = (ListVector) vector;
      Map<?, ?> map = (Map<?, ?>) value;
      int offset = list.startNewValue(i);
      StructVector entries = (StructVector) list.getDataVector();
      int j = offset;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        entries.setIndexDefined(j);
        set(entries.getChild("key"), j, m.key(), e.getKey());
        set(entries.getChild("value"), j, m.value(), e.getValue());
        j++;
      }
      list.endValue(i, map.size());
    } else if (type instanceof ListType l) {
      ListVector list = (ListVector) vector;
      List<?> elements = (List<?>) value;
      int offset = list.startNewValue(i);
      int j = offset;
      for (Object element : elements) {
        set(list.getDataVector(), j++, l.element(), element);
      }
      list.endValue(i, elements.size());
    } else {
      RowType r = (RowType) type;
      List<?> fields = (List<?>) value;
      StructVector s = (StructVector) vector;
      s.setIndexDefined(i);
      for (int k = 0; k < r.fields().size(); k++) {
        Field f = r.fields().get(k);
        set(s.getChild(f.name()), i, f.type(), fields.get(k));
      }
    }
  }

  private static void setNull(ValueVector vector, int i) {
    if (vector instanceof StructVector s) {
      s.setNull(i);
    } else if (vector instanceof ListVector l) {
      l.setNull(i);
    } else if (vector instanceof org.apache.arrow.vector.BaseFixedWidthVector f) {
      f.setNull(i);
    } else if (vector instanceof org.apache.arrow.vector.BaseVariableWidthVector w) {
      w.setNull(i);
    } else {
      throw new IllegalStateException("No null setter for " + vector.getClass().getName());
    }
  }
}
