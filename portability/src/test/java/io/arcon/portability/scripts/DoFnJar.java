package io.arcon.portability.scripts;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * A jar with a DoFn that exists nowhere else: {@code jaronly.AppendLine}, which appends each
 * element as a line to a file. A pipeline that uses it runs only where the jar is on the classpath.
 */
final class DoFnJar {
  static final String CLASS = "jaronly.AppendLine";

  private static final String SOURCE =
      """
      package jaronly;

      import java.nio.file.Files;
      import java.nio.file.Path;
      import java.nio.file.StandardOpenOption;
      import org.apache.beam.sdk.transforms.DoFn;

      public class AppendLine extends DoFn<String, Void> {
        private final String file;

        public AppendLine(String file) {
          this.file = file;
        }

        @ProcessElement
        public void process(@Element String element) throws java.io.IOException {
          synchronized (AppendLine.class) {
            Files.writeString(
                Path.of(file),
                element + "\\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
          }
        }
      }
      """;

  private DoFnJar() {}

  /** Compiles {@code jaronly.AppendLine} into {@code dir/user-dofn.jar}. */
  static Path build(Path dir) throws IOException {
    Path sources = Files.createDirectories(dir.resolve("src/jaronly"));
    Path source = Files.writeString(sources.resolve("AppendLine.java"), SOURCE);
    Path out = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int exit =
        javac.run(
            null,
            null,
            null,
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            out.toString(),
            source.toString());
    if (exit != 0) {
      throw new IOException("compiling " + source + " failed");
    }
    Path jar = dir.resolve("user-dofn.jar");
    try (JarOutputStream jarOut = new JarOutputStream(Files.newOutputStream(jar))) {
      jarOut.putNextEntry(new JarEntry("jaronly/"));
      jarOut.closeEntry();
      jarOut.putNextEntry(new JarEntry("jaronly/AppendLine.class"));
      jarOut.write(Files.readAllBytes(out.resolve("jaronly/AppendLine.class")));
      jarOut.closeEntry();
    }
    return jar;
  }

  /** An instance of the jar's DoFn, writing to {@code file}, loaded from {@code jar} alone. */
  @SuppressWarnings("unchecked")
  static DoFn<String, Void> appendLine(Path jar, Path file) throws Exception {
    URLClassLoader loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, DoFnJar.class.getClassLoader());
    return (DoFn<String, Void>)
        loader.loadClass(CLASS).getConstructor(String.class).newInstance(file.toString());
  }

  static List<String> linesOf(Path file) throws IOException {
    return Files.exists(file) ? Files.readAllLines(file).stream().sorted().toList() : List.of();
  }
}
