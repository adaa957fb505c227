package io.arcon.portability.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService.ArtifactDestination;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagingRootTest {

  @TempDir Path temp;

  @Test
  void artifactNamesNeverLeaveTheSessionsDirectory() throws IOException {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    List<String> hostile =
        List.of(
            "../../../escaped",
            "/etc/passwd",
            "..",
            ".",
            "",
            "a/../../b",
            "..\\..\\windows",
            "1-env-../../../x",
            "name\u0000with-nul");
    for (int i = 0; i < hostile.size(); i++) {
      // A session per name: ".", ".." and "" all become the same plain name.
      String name = hostile.get(i);
      Path session = root.openSession("token-" + i);
      Path written = write(root, "token-" + i, name, name);
      assertEquals(session, written.getParent(), name + " landed in " + written);
      assertEquals(name, Files.readString(written), name);
    }
    try (var files = Files.list(temp)) {
      assertEquals(List.of(temp.resolve("staging")), files.toList(), "nothing outside staging");
    }
  }

  @Test
  void readableNamesAreKept() throws IOException {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    root.openSession("t");
    assertEquals(
        "3-env_1-beam-sdks-java-core.jar",
        write(root, "t", "3-env_1-beam-sdks-java-core.jar", "x").getFileName().toString());
  }

  @Test
  void anArtifactNeverOverwritesAnother() throws IOException {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    root.openSession("t");
    write(root, "t", "same", "first");
    assertThrows(IOException.class, () -> root.getDestination("t", "same"));
  }

  @Test
  void unknownSessionsAreRefused() {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    assertThrows(IOException.class, () -> root.getDestination("never-opened", "a.jar"));
  }

  @Test
  void aTokenThatIsNotAPlainNameIsRefused() {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    assertThrows(IllegalArgumentException.class, () -> root.openSession("../outside"));
  }

  @Test
  void removingASessionDeletesItsDirectory() throws IOException {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    Path session = root.openSession("t");
    write(root, "t", "a.jar", "x");
    root.removeStagedArtifacts("t");
    assertFalse(Files.exists(session));
    assertTrue(Files.isDirectory(root.root()), "the root stays");
    root.removeStagedArtifacts("t"); // a second removal is no error
  }

  @Test
  void holdsOnlyPathsUnderTheRoot() {
    StagingRoot root = new StagingRoot(temp.resolve("staging"));
    assertTrue(root.holds(root.root().resolve("t/a.jar")));
    assertFalse(root.holds(root.root()));
    assertFalse(root.holds(root.root().resolve("../secret")));
    assertFalse(root.holds(temp.resolve("staging-sibling/a.jar")));
  }

  /** Writes through the destination the staging service would get; returns the file. */
  private static Path write(StagingRoot root, String token, String name, String content)
      throws IOException {
    ArtifactDestination destination = root.getDestination(token, name);
    try (OutputStream out = destination.getOutputStream()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(ArtifactRetrievalService.FILE_ARTIFACT_URN, destination.getTypeUrn());
    return Path.of(RunnerApi.ArtifactFilePayload.parseFrom(destination.getTypePayload()).getPath());
  }
}
