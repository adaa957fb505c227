package io.arcon.tss.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LakeLayoutTest {
  private static final Instant T = Instant.parse("2026-12-02T13:00:00Z");

  @TempDir Path dir;

  @Test
  void everyPathOfATssHangsOffItsDirectory() {
    LakeLayout lake = new LakeLayout("s3a://bucket/lake/");
    assertEquals("s3a://bucket/lake", lake.root());
    assertEquals("s3a://bucket/lake/t", lake.tssDir("t"));
    assertEquals("s3a://bucket/lake/t/_definition.json", lake.definitionFile("t"));
    assertEquals("s3a://bucket/lake/t/version=2026-12-02T13:00:00Z", lake.versionDir("t", T));
    assertEquals(
        "s3a://bucket/lake/t/version=2026-12-02T13:00:00Z/app", lake.appDir("t", T, "app"));
    assertEquals(
        "s3a://bucket/lake/t/version=2026-12-02T13:00:00Z/app/Count.clicks",
        lake.stateDir("t", T, "app", "Count.clicks"));
    assertEquals(
        "s3a://bucket/lake/t/version=2026-12-02T13:00:00Z/app/Count.clicks/part-0.parquet",
        lake.stateFile("t", T, "app", "Count.clicks"));
    assertEquals(
        "s3a://bucket/lake/t/version=2026-12-02T13:00:00Z/_COMMITTED",
        lake.committedMarker("t", T));
    assertEquals(
        "s3a://bucket/lake/t/version=2026-12-02T13:00:00Z/transform/part-0.parquet",
        lake.transformFile("t", T));
    assertEquals("s3a://bucket/lake/t/_full", lake.fullDir("t"));
    assertEquals(
        "s3a://bucket/lake/t/_full/version=2026-12-02T13:00:00Z/app/s/part-0.parquet",
        lake.fullStateFile("t", T, "app", "s"));
  }

  @Test
  void theAgentsFileInsideItsTargetDirectoryIsTheStateFile() {
    LakeLayout lake = new LakeLayout("s3a://bucket/lake");
    assertEquals(
        lake.stateFile("t", T, "app", "clicks"),
        LakeLayout.stateFileIn(lake.appDir("t", T, "app"), "clicks"));
  }

  @Test
  void aLocalDirectoryBecomesAFileUri() {
    LakeLayout lake = LakeLayout.local(dir.resolve("lake"));
    assertEquals(dir.resolve("lake").toUri().toString().replaceAll("/$", ""), lake.root());
    assertEquals(lake.root(), new LakeLayout(dir.resolve("lake") + "/").root());
    assertTrue(lake.root().startsWith("file:/"), lake.root());
  }

  @Test
  void writersWritePartZeroAndReadersTakeEveryPart() {
    assertEquals("part-0.parquet", LakeLayout.partFileName(0));
    assertEquals("part-12.parquet", LakeLayout.partFileName(12));
    assertThrows(IllegalArgumentException.class, () -> LakeLayout.partFileName(-1));
    for (String part : List.of("part-0.parquet", "part-00000.parquet", "part-12-abc.parquet")) {
      assertTrue(LakeLayout.isPartFile(part), part);
    }
    for (String other :
        List.of(".part-0.parquet.inprogress-1", "part-0.parquet.tmp", "data.parquet", "part-0")) {
      assertFalse(LakeLayout.isPartFile(other), other);
    }
  }

  @Test
  void versionDirectoryNamesRoundTrip() {
    assertEquals("version=2026-12-02T13:00:00Z", LakeLayout.versionDirName(T));
    assertEquals(Optional.of(T), LakeLayout.versionOf(LakeLayout.versionDirName(T)));
    Instant fraction = T.plusMillis(250);
    assertEquals(Optional.of(fraction), LakeLayout.versionOf(LakeLayout.versionDirName(fraction)));
    assertEquals(Optional.empty(), LakeLayout.versionOf("version=yesterday"));
    assertEquals(Optional.empty(), LakeLayout.versionOf("_full"));
    assertEquals(Optional.empty(), LakeLayout.versionOf("transform"));
  }

  @Test
  void layoutRefusesNamesThatCouldEscape() {
    LakeLayout lake = new LakeLayout("/lake");
    for (String bad : List.of("../x", "a/b", "..", "", "1abc", "a.b")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> lake.versionDir(bad, T));
      assertTrue(e.getMessage().startsWith("invalid TSS name '" + bad + "'"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> lake.stateDir("t", T, "app", "a/../b"));
    assertThrows(IllegalArgumentException.class, () -> lake.stateDir("t", T, "app", "A..b"));
    assertThrows(IllegalArgumentException.class, () -> lake.appDir("t", T, "../app"));
    assertThrows(
        IllegalArgumentException.class, () -> LakeLayout.stateFileIn("s3a://b/l/t", "../s"));
  }
}
