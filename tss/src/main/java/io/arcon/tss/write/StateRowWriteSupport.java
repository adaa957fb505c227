package io.arcon.tss.write;

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
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Streams {@link StateChange}s into Parquet's record consumer following {@link
 * ParquetSchemas#fileSchema}. For a full version the change's op is ignored and no {@code op}
 * column exists.
 */
final class StateRowWriteSupport extends WriteSupport<StateChange> {
  static final String META_KEY_TYPE = "arcon.tss.key_type";
  static final String META_VALUE_TYPE = "arcon.tss.value_type";
  static final String META_VERSION = "arcon.tss.version";
  static final String META_DIFF = "arcon.tss.diff";

  private final StateSchema schema;
  private final boolean diff;
  private final long versionMicros;
  private final Instant version;
  private final MessageType messageType;
  private final Map<String, String> extraMetadata;
  private RecordConsumer consumer;

  /**
   * @param extraMetadata more footer entries (see {@link OutputMetadata}); they cannot replace the
   *     writer's own {@code arcon.tss.*} entries, which a reader needs to read the file back
   */
  StateRowWriteSupport(
      StateSchema schema, boolean diff, Instant version, Map<String, String> extraMetadata) {
    this.schema = schema;
    this.diff = diff;
    this.version = version;
    this.extraMetadata = Map.copyOf(extraMetadata);
    this.versionMicros = Micros.of(version);
    this.messageType = ParquetSchemas.fileSchema(schema, diff);
  }

  @Override
  public WriteContext init(Configuration configuration) {
    Map<String, String> meta = new HashMap<>(extraMetadata);
    // The TSS types survive in the footer so a reader can rebuild the exact StateSchema.
    meta.put(META_KEY_TYPE, schema.keyType().toString());
    meta.put(META_VALUE_TYPE, schema.valueType().toString());
    meta.put(META_VERSION, version.toString());
    meta.put(META_DIFF, Boolean.toString(diff));
    return new WriteContext(messageType, meta);
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(StateChange change) {
    StateRow row = change.row();
    Values.check(schema.keyType(), row.key(), true, "key");
    Values.check(schema.valueType(), row.value(), true, "value");
    consumer.startMessage();
    int index = 0;
    writeField(Columns.KEY, index++, schema.keyType(), row.key());
    Instant start = row.window() == null ? null : row.window().start();
    Instant end = row.window() == null ? null : row.window().end();
    writeField(Columns.WINDOW_START, index++, FieldType.TIMESTAMP, start);
    writeField(Columns.WINDOW_END, index++, FieldType.TIMESTAMP, end);
    writeField(Columns.VALUE, index++, schema.valueType(), row.value());
    writeField(Columns.UPDATED_AT, index++, FieldType.TIMESTAMP, row.updatedAt());
    consumer.startField(Columns.VERSION, index);
    consumer.addLong(versionMicros);
    consumer.endField(Columns.VERSION, index++);
    if (diff) {
      consumer.startField(Columns.OP, index);
      consumer.addBinary(Binary.fromString(change.op().columnValue()));
      consumer.endField(Columns.OP, index);
    }
    consumer.endMessage();
  }

  /** Writes a field unless the value is null (absence is how Parquet encodes null). */
  private void writeField(String name, int index, FieldType type, Object value) {
    if (value == null) {
      return;
    }
    consumer.startField(name, index);
    writeValue(type, value);
    consumer.endField(name, index);
  }

  private void writeValue(FieldType type, Object value) {
    if (type instanceof PrimitiveType p) {
      switch (p) {
        case STRING -> consumer.addBinary(Binary.fromString((String) value));
        case BYTES -> consumer.addBinary(Binary.fromConstantByteArray((byte[]) value));
        case INT32 -> consumer.addInteger((Integer) value);
        case INT64 -> consumer.addLong((Long) value);
        case FLOAT -> consumer.addFloat((Float) value);
        case DOUBLE -> consumer.addDouble((Double) value);
        case BOOLEAN -> consumer.addBoolean((Boolean) value);
        case TIMESTAMP -> consumer.addLong(Micros.of((Instant) value));
      }
    } else if (type instanceof OpaqueType) {
      OpaqueValue v = (OpaqueValue) value;
      consumer.startGroup();
      consumer.startField(Columns.OPAQUE_BYTES, 0);
      consumer.addBinary(Binary.fromConstantByteArray(v.bytes()));
      consumer.endField(Columns.OPAQUE_BYTES, 0);
      if (v.readable() != null) {
        consumer.startField(Columns.OPAQUE_READABLE, 1);
        consumer.addBinary(Binary.fromString(v.readable()));
        consumer.endField(Columns.OPAQUE_READABLE, 1);
      }
      consumer.endGroup();
    } else if (type instanceof ListType l) {
      List<?> list = (List<?>) value;
      consumer.startGroup();
      if (!list.isEmpty()) {
        consumer.startField("list", 0);
        for (Object element : list) {
          consumer.startGroup();
          writeField("element", 0, l.element(), element);
          consumer.endGroup();
        }
        consumer.endField("list", 0);
      }
      consumer.endGroup();
    } else if (type instanceof MapType m) {
      Map<?, ?> map = (Map<?, ?>) value;
      consumer.startGroup();
      if (!map.isEmpty()) {
        consumer.startField("key_value", 0);
        for (Map.Entry<?, ?> e : map.entrySet()) {
          consumer.startGroup();
          writeField("key", 0, m.key(), e.getKey());
          writeField("value", 1, m.value(), e.getValue());
          consumer.endGroup();
        }
        consumer.endField("key_value", 0);
      }
      consumer.endGroup();
    } else {
      RowType r = (RowType) type;
      List<?> fields = (List<?>) value;
      consumer.startGroup();
      for (int i = 0; i < r.fields().size(); i++) {
        Field f = r.fields().get(i);
        writeField(f.name(), i, f.type(), fields.get(i));
      }
      consumer.endGroup();
    }
  }
}
