package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.StateSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetWarmUpTest {
  @TempDir Path parent;

  @Test
  void writesOneFilePerDistinctSchemaAndTheRowsFileThenLeavesNothingBehind() throws IOException {
    StateSchema counts = new StateSchema(FieldType.STRING, FieldType.INT64);
    StateSchema tags =
        new StateSchema(
            FieldType.INT64, new MapType(FieldType.STRING, new ListType(FieldType.INT32)));

    int files =
        ParquetWarmUp.run(new ParquetVersionWriter(), List.of(counts, tags, counts), parent);

    assertEquals(3, files, "one per distinct schema, and the counter rows");
    try (Stream<Path> left = Files.list(parent)) {
      assertEquals(List.of(), left.toList(), "the warm-up folder is deleted with its files");
    }
  }

  @Test
  void aParentThatIsNotAFolderIsAnErrorNamingIt() throws IOException {
    Path notAFolder = Files.writeString(parent.resolve("file"), "x");

    UncheckedIOException e =
        assertThrows(
            UncheckedIOException.class,
            () -> ParquetWarmUp.run(new ParquetVersionWriter(), List.of(), notAFolder));

    assertTrue(e.getMessage().contains(notAFolder.toString()), e.getMessage());
  }

  @Test
  void onlyTheFirstClaimInAJvmWins() {
    ParquetWarmUp.claim();

    assertFalse(ParquetWarmUp.claim());
  }
}
