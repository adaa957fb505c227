package io.arcon.runtime.checkpoint;

import io.arcon.runtime.checkpoint.CheckpointLayout.VertexLayout;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * What a checkpoint records besides the operators' files: the graph layout, the instances that had
 * finished, and when the epoch started and committed. Stored as {@code checkpoint.properties} (the
 * JDK's escaping keeps any transform name intact, and the file stays readable), which the manifest
 * checksums like every other file of the epoch.
 */
record CheckpointMetadata(
    long epoch,
    CheckpointLayout layout,
    Set<InstanceId> finishedInstances,
    long startedAtMillis,
    long committedAtMillis) {

  /**
   * The checkpoint format, raised whenever runner-internal state a checkpoint holds changes layout,
   * so that an older checkpoint is refused with a message rather than read wrongly. 2: a GroupByKey
   * under a watermark trigger keeps one pane cell per window (WatermarkTriggerGroupByKeyOperator)
   * where format 1 kept runners-core's cells. 3: a merging-window GroupByKey keeps its windows'
   * panes in the key's windows cell (MergingWindows' coder) where format 2 kept a pane cell per
   * window.
   */
  static final String FORMAT = "3";

  CheckpointMetadata {
    finishedInstances = Set.copyOf(finishedInstances);
  }

  /** Writes the metadata to {@code file} and fsyncs it. */
  void write(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("format", FORMAT);
    p.setProperty("epoch", Long.toString(epoch));
    p.setProperty("job.name", layout.jobName());
    p.setProperty("started.at.millis", Long.toString(startedAtMillis));
    p.setProperty("committed.at.millis", Long.toString(committedAtMillis));
    p.setProperty("vertex.count", Integer.toString(layout.vertices().size()));
    for (int k = 0; k < layout.vertices().size(); k++) {
      VertexLayout v = layout.vertices().get(k);
      String prefix = "vertex." + k + ".";
      p.setProperty(prefix + "id", Integer.toString(v.id()));
      p.setProperty(prefix + "name", v.name());
      p.setProperty(prefix + "parallelism", Integer.toString(v.parallelism()));
      p.setProperty(prefix + "operator.count", Integer.toString(v.operators().size()));
      for (int j = 0; j < v.operators().size(); j++) {
        p.setProperty(prefix + "operator." + j, v.operators().get(j));
      }
    }
    List<InstanceId> finished = new ArrayList<>(finishedInstances);
    finished.sort(
        Comparator.comparingInt(InstanceId::vertexId).thenComparingInt(InstanceId::instance));
    StringBuilder list = new StringBuilder();
    for (InstanceId id : finished) {
      list.append(list.length() == 0 ? "" : " ")
          .append(id.vertexId())
          .append('/')
          .append(id.instance());
    }
    p.setProperty("finished.instances", list.toString());

    StringWriter text = new StringWriter();
    p.store(text, "Arcon checkpoint of job " + layout.jobName() + ", epoch " + epoch);
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      out.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
      out.force(true);
    }
  }

  /**
   * Reads the metadata of a checkpoint whose manifest already verified this file's checksum, so a
   * parse failure means a file this version does not understand, reported as corrupt.
   */
  static CheckpointMetadata read(Path file) {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptCheckpointException("Cannot read checkpoint metadata " + file + ": " + e, e);
    }
    Parser parser = new Parser(file, p);
    String format = parser.string("format");
    if (!FORMAT.equals(format)) {
      throw new CheckpointFormatException(
          file
              + " has checkpoint format "
              + format
              + ", this runner reads format "
              + FORMAT
              + " (the layout of the runner's own state changed between the two versions; the"
              + " other epochs of that run have the same format): resume it with the ArconRunner"
              + " version that wrote the checkpoint, or start the job without --restoreFrom");
    }
    try {
      int vertexCount = parser.integer("vertex.count");
      List<VertexLayout> vertices = new ArrayList<>();
      for (int k = 0; k < vertexCount; k++) {
        String prefix = "vertex." + k + ".";
        int operatorCount = parser.integer(prefix + "operator.count");
        List<String> operators = new ArrayList<>();
        for (int j = 0; j < operatorCount; j++) {
          operators.add(parser.string(prefix + "operator." + j));
        }
        vertices.add(
            new VertexLayout(
                parser.integer(prefix + "id"),
                parser.string(prefix + "name"),
                parser.integer(prefix + "parallelism"),
                operators));
      }
      CheckpointLayout layout = new CheckpointLayout(parser.string("job.name"), vertices);
      Set<InstanceId> finished = new LinkedHashSet<>();
      String list = parser.string("finished.instances").trim();
      if (!list.isEmpty()) {
        for (String item : list.split(" +")) {
          String[] parts = item.split("/", -1);
          if (parts.length != 2) {
            throw new IllegalArgumentException("bad finished instance '" + item + "'");
          }
          InstanceId id = new InstanceId(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
          if (!layout.contains(id)) {
            throw new IllegalArgumentException("finished instance " + id + " is not in the layout");
          }
          finished.add(id);
        }
      }
      return new CheckpointMetadata(
          parser.longValue("epoch"),
          layout,
          finished,
          parser.longValue("started.at.millis"),
          parser.longValue("committed.at.millis"));
    } catch (IllegalArgumentException e) {
      throw new CorruptCheckpointException(
          "Checkpoint metadata " + file + " is invalid: " + e.getMessage(), e);
    }
  }

  private record Parser(Path file, Properties properties) {
    String string(String key) {
      String value = properties.getProperty(key);
      if (value == null) {
        throw new CorruptCheckpointException(
            "Checkpoint metadata " + file + " lacks the entry '" + key + "'");
      }
      return value;
    }

    int integer(String key) {
      long value = longValue(key);
      if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("entry '" + key + "' is out of range: " + value);
      }
      return (int) value;
    }

    long longValue(String key) {
      String value = string(key);
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("entry '" + key + "' is not a number: '" + value + "'");
      }
    }
  }
}
