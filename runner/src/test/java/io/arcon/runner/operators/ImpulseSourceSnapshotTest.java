package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.operators.snapshot.CorruptSnapshotException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.values.WindowedValue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImpulseSourceSnapshotTest {
  @TempDir Path checkpoints;

  @ParameterizedTest(name = "parallelism {0} -> {1}, snapshot after the impulse: {2}")
  @CsvSource({
    "1, 1, false",
    "1, 1, true",
    "2, 2, false",
    "2, 2, true",
    "1, 3, false",
    "3, 1, true",
    "2, 3, true"
  })
  void theImpulseIsEmittedExactlyOnceAcrossTheRestore(int from, int to, boolean emittedFirst)
      throws Exception {
    List<Path> snapshot;
    List<Object> before;
    try (SourceInstances first = SourceInstances.start(ImpulseSource::new, from, true)) {
      if (emittedFirst) {
        first.pollToEnd(10);
      }
      snapshot = first.snapshot(1, checkpoints);
      before = first.allEmitted();
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(ImpulseSource::new, to, 1, snapshot)) {
      second.pollToEnd(10);
      restored = second.allEmitted();
      assertTrue(second.operators.stream().allMatch(o -> o.currentWatermark() == Long.MAX_VALUE));
    }
    assertEquals(emittedFirst ? 1 : 0, before.size());
    assertEquals(emittedFirst ? 0 : 1, restored.size());
    Object impulse = emittedFirst ? before.get(0) : restored.get(0);
    assertArrayEquals(new byte[0], (byte[]) ((WindowedValue<?>) impulse).getValue());
  }

  @ParameterizedTest(name = "parallelism {0} -> {1}")
  @CsvSource({"1, 1", "2, 1"})
  void aDamagedSnapshotIsRefusedNamingTheFile(int from, int to) throws Exception {
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(ImpulseSource::new, from, true)) {
      first.pollToEnd(10);
      snapshot = first.snapshot(1, checkpoints);
    }
    Path file = snapshot.get(0).resolve(ImpulseSource.SNAPSHOT_FILE);
    byte[] content = Files.readAllBytes(file);
    content[content.length - Long.BYTES - 1] ^= 1; // the "emitted" flag itself
    Files.write(file, content);
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> SourceInstances.restore(ImpulseSource::new, to, 1, snapshot));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }
}
