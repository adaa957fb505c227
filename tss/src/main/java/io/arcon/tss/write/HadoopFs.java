package io.arcon.tss.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Hadoop {@link Configuration}s that work with no Hadoop installation.
 *
 * <p>Local paths use {@link org.apache.hadoop.fs.RawLocalFileSystem}: the checksummed default would
 * put a {@code .crc} file beside every Parquet file in the lake, and readers other than Hadoop have
 * no use for them. Other schemes ({@code s3a://}, {@code hdfs://}) resolve through the usual {@code
 * fs.<scheme>.impl} lookup when their jars are on the class path.
 */
public final class HadoopFs {
  static {
    // Hadoop warns once per JVM that it cannot find libhadoop.so; the pure-Java code paths are
    // what we use anyway (Parquet's codecs bring their own native libraries), so silence it.
    if (System.getProperty("org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader")
        == null) {
      System.setProperty(
          "org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader", "error");
    }
  }

  private HadoopFs() {}

  /** A configuration for the lake: local paths without checksum files, other schemes as usual. */
  public static Configuration defaultConfiguration() {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    // A cached FileSystem created elsewhere in the JVM with another fs.file.impl must not win.
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }

  /** The file system of {@code path}, with a message naming the path if it cannot be created. */
  static FileSystem fileSystem(Path path, Configuration conf) {
    try {
      return path.getFileSystem(conf);
    } catch (IOException | RuntimeException e) {
      // A scheme with no implementation is an IOException; one whose configured class is
      // missing (s3a without hadoop-aws) is a RuntimeException wrapping ClassNotFoundException.
      Throwable reason = e.getCause() instanceof ClassNotFoundException ? e.getCause() : e;
      throw new UncheckedIOException(
          "Cannot open the file system of '"
              + path
              + "' (scheme "
              + path.toUri().getScheme()
              + "): "
              + reason.getMessage()
              + "; for s3a:// and similar, put the Hadoop connector jar (e.g. hadoop-aws) on the"
              + " class path",
          e instanceof IOException io ? io : new IOException(reason));
    }
  }
}
