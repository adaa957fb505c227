package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputMetadataTest {
  private static final Instant V = Instant.parse("2026-12-02T13:00:00Z");

  @TempDir Path dir;

  @Test
  void onlyAnExactStateOrATransformOfExactStatesIsLabelledExact() {
    assertEquals("exact", OutputMetadata.consistencyValue(Consistency.EXACT));
    assertEquals("watermark_cut", OutputMetadata.consistencyValue(Consistency.WATERMARK_CUT));
    assertEquals(
        "watermark_cut", OutputMetadata.consistencyValue(Consistency.CONSISTENCY_UNSPECIFIED));
    assertEquals(
        "exact",
        OutputMetadata.ofTransform(V, List.of("exact", "exact")).get(OutputMetadata.CONSISTENCY));
    assertEquals(
        "watermark_cut",
        OutputMetadata.ofTransform(V, List.of("exact", "watermark_cut"))
            .get(OutputMetadata.CONSISTENCY));
    assertEquals(
        "watermark_cut",
        OutputMetadata.ofTransform(V, List.of("exact", "")).get(OutputMetadata.CONSISTENCY),
        "an input without a label is not known to be exact");
  }

  @Test
  void extraMetadataLandsInTheFooterAndCannotReplaceWhatTheReaderNeeds() {
    StateSchema schema = new StateSchema(FieldType.STRING, FieldType.INT64);
    String file = dir.resolve("part-0.parquet").toString();
    Map<String, String> metadata =
        Map.of(
            OutputMetadata.APP, "shop",
            OutputMetadata.CONSISTENCY, "exact",
            StateRowWriteSupport.META_VERSION, "not a time");
    new ParquetVersionWriter()
        .writeVersion(
            file, schema, List.of(new StateRow("a", null, 1L, V.minusSeconds(1))), V, metadata);

    ParquetVersionReader.VersionFile back = new ParquetVersionReader().read(file);
    assertEquals(V, back.version());
    assertEquals("shop", back.metadata().get(OutputMetadata.APP));
    assertEquals(
        Map.of(OutputMetadata.APP, "shop", OutputMetadata.CONSISTENCY, "exact"),
        OutputMetadata.carried(new ParquetVersionReader().readMetadata(file)));
  }
}
