package io.arcon.runner.state;

import io.arcon.state.StateBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StateInternalsTest;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.junit.After;

/**
 * Beam's own StateInternals contract tests ({@link StateInternalsTest} from runners-core's tests
 * jar) over one engine; one subclass per engine.
 */
public abstract class EngineStateInternalsTest extends StateInternalsTest {
  private StateBackend backend;
  private Path dir;

  protected abstract String engine();

  @Override
  protected StateInternals createStateInternals() {
    try {
      dir = Files.createTempDirectory("arcon-state-" + engine());
      backend = TestBackends.open(engine(), dir.resolve("db"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    BackendStateInternals<String> internals =
        new BackendStateInternals<>(backend, StringUtf8Coder.of());
    internals.setKey("key");
    return internals;
  }

  @After
  public void disposeBackend() throws IOException {
    if (backend != null) {
      backend.dispose();
    }
    if (dir != null) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
