package io.arcon.runtime.checkpoint;

import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.operator.Operator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** Graphs and files for the checkpoint tests. */
final class Checkpoints {
  private Checkpoints() {}

  /** A vertex to build: name, parallelism, operator names. */
  record V(String name, int parallelism, String... operators) {}

  static final Supplier<Operator> NO_OPERATOR =
      () -> {
        throw new AssertionError("the checkpoint tests never run operators");
      };

  /** A graph with the given vertices in this order (so ids follow the order). */
  static JobGraph graph(V... vertices) {
    JobGraph g = new JobGraph();
    for (V v : vertices) {
      Vertex vertex = g.addVertex(v.name(), v.parallelism());
      for (String op : v.operators()) {
        vertex.addOperator(op, NO_OPERATOR);
      }
    }
    return g;
  }

  static int idOf(JobGraph graph, String vertexName) {
    for (Vertex v : graph.vertices()) {
      if (v.name().equals(vertexName)) {
        return v.id();
      }
    }
    throw new AssertionError("no vertex " + vertexName);
  }

  /** Writes {@code size} seeded random bytes to {@code file}; returns them. */
  static byte[] writeRandom(Path file, int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes;
  }

  /** Every regular file under {@code root}. */
  static List<Path> filesUnder(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return new ArrayList<>(walk.filter(Files::isRegularFile).sorted().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static long bytesUnder(Path root) {
    long total = 0;
    for (Path f : filesUnder(root)) {
      try {
        total += Files.size(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return total;
  }

  static boolean isEmptyDirectory(Path d) {
    try (Stream<Path> children = Files.list(d)) {
      return children.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
