package io.arcon.portability.scripts;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The repository's {@code bin/} scripts, copied into a directory laid out as the repository is,
 * over this build's classes: {@code portability/target/classes} and the runtime classpath file the
 * scripts' Maven build would write. The scripts run as they are, without building anything and
 * without touching the real {@code target/}.
 */
final class ScriptLayout {
  final Path root;

  private ScriptLayout(Path root) {
    this.root = root;
  }

  static ScriptLayout create(Path dir) throws IOException {
    // Surefire runs in the module's directory.
    Path module = Path.of("").toAbsolutePath();
    Path repository = module.getParent();
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String script : List.of("arcon-jobserver", "arcon-java-harness")) {
      Path copy = bin.resolve(script);
      Files.copy(repository.resolve("bin").resolve(script), copy);
      if (!copy.toFile().setExecutable(true)) {
        throw new IOException("cannot make " + copy + " executable");
      }
    }
    Path target = Files.createDirectories(dir.resolve("portability/target"));
    Path classes = module.resolve("target/classes");
    Files.createSymbolicLink(target.resolve("classes"), classes);
    // The runtime classpath: this test JVM's, without the module's own classes and test classes.
    Path testClasses = module.resolve("target/test-classes");
    List<String> runtime = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath();
      if (!p.equals(classes) && !p.equals(testClasses)) {
        runtime.add(entry);
      }
    }
    Files.writeString(
        target.resolve("runtime-classpath.txt"),
        runtime.stream().collect(Collectors.joining(File.pathSeparator)));
    return new ScriptLayout(dir);
  }

  Path script(String name) {
    return root.resolve("bin").resolve(name);
  }

  /** {@code bin/<script> args...}, never building, with this JVM's java. */
  ProcessBuilder command(String script, String... args) {
    List<String> command = new ArrayList<>(List.of("bash", script(script).toString()));
    command.addAll(Arrays.asList(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("ARCON_JOBSERVER_BUILD", "0");
    builder
        .environment()
        .put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    builder.environment().remove("ARCON_JOBSERVER_CLASSPATH");
    builder.environment().remove("ARCON_HARNESS_CLASSPATH");
    return builder;
  }
}
