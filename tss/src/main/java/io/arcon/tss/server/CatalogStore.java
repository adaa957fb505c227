package io.arcon.tss.server;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.TssCatalogEntry;
import io.arcon.tss.proto.VersionRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The control plane's durable catalog in its home directory, one protobuf-JSON file per object so
 * every change rewrites one small file atomically:
 *
 * <pre>
 * home/catalog/tss/&lt;name&gt;.json      definition + open (PENDING) versions (TssCatalogEntry)
 * home/catalog/tss/&lt;name&gt;.versions  final (COMMITTED/FAILED) versions, append-only
 * home/catalog/apps/&lt;name&gt;.json     last registered state catalog of an app (AppInfo)
 * </pre>
 *
 * <p>Final versions go to an append-only log of length-delimited {@link VersionRecord}s, so the
 * cost of a change does not grow with the history of a long-running periodic TSS. A version is
 * appended (and fsynced) to the log before it is removed from the JSON file; after a crash in
 * between it is in both and the log wins. A record torn by a crash mid-append was never
 * acknowledged (its version is still PENDING in the JSON file) and is cut off at load.
 *
 * <p>The files hold the protobuf forms of the catalog ({@link WireForms}); the control plane works
 * on {@link TssState} and {@link AppState} through {@link #restoreTss}, {@link #save(TssState)},
 * {@link #logFinal}, {@link #restoreApps} and {@link #save(AppState)}.
 *
 * <p>Names are checked identifiers before they get here, so they are safe file names.
 */
final class CatalogStore {
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final String VERSIONS_SUFFIX = ".versions";

  private final Path tssDir;
  private final Path appsDir;

  CatalogStore(Path home) {
    this.tssDir = home.resolve("catalog").resolve("tss");
    this.appsDir = home.resolve("catalog").resolve("apps");
    try {
      Files.createDirectories(tssDir);
      Files.createDirectories(appsDir);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create the control plane's catalog under " + home + ": " + e.getMessage(), e);
    }
  }

  /**
   * The TSS of the catalog with their versions. The log of final versions wins over a PENDING copy
   * left in the JSON file by a crash in between.
   */
  List<TssState> restoreTss() {
    List<TssState> restored = new ArrayList<>();
    for (TssCatalogEntry entry : loadTss()) {
      TssState tss = new TssState(WireForms.spec(entry.getDefinition()));
      for (VersionRecord v : entry.getVersionsList()) {
        tss.restore(WireForms.version(v));
      }
      for (VersionRecord v : loadFinalVersions(tss.name())) {
        tss.restore(WireForms.version(v));
      }
      restored.add(tss);
    }
    return restored;
  }

  /** Saves the definition and the open versions of a TSS. */
  void save(TssState tss) {
    saveTss(WireForms.catalogEntry(tss));
  }

  /** Appends a COMMITTED or FAILED version to the TSS's log, durably. */
  void logFinal(String tss, Version version) {
    appendFinalVersion(tss, WireForms.record(version));
  }

  /** The apps of the catalog, disconnected. */
  List<AppState> restoreApps() {
    List<AppState> apps = new ArrayList<>();
    for (AppInfo info : loadApps()) {
      apps.add(WireForms.app(info));
    }
    return apps;
  }

  /** Saves the last registered state catalog of an app. */
  void save(AppState app) {
    saveApp(WireForms.persistedApp(app));
  }

  List<TssCatalogEntry> loadTss() {
    List<TssCatalogEntry> entries = new ArrayList<>();
    for (Path file : jsonFiles(tssDir)) {
      TssCatalogEntry.Builder builder = TssCatalogEntry.newBuilder();
      parse(file, builder);
      entries.add(builder.build());
    }
    return entries;
  }

  private List<AppInfo> loadApps() {
    List<AppInfo> apps = new ArrayList<>();
    for (Path file : jsonFiles(appsDir)) {
      AppInfo.Builder builder = AppInfo.newBuilder();
      parse(file, builder);
      apps.add(builder.build());
    }
    return apps;
  }

  void saveTss(TssCatalogEntry entry) {
    write(tssDir.resolve(entry.getDefinition().getName() + ".json"), entry);
  }

  /** Appends a COMMITTED or FAILED version to the TSS's log, durably. */
  void appendFinalVersion(String tss, VersionRecord record) {
    Path log = tssDir.resolve(tss + VERSIONS_SUFFIX);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      record.writeDelimitedTo(bytes);
      try (FileChannel channel =
          FileChannel.open(
              log,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes.toByteArray());
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to the version log " + log, e);
    }
  }

  /** The final versions of a TSS in the order they were appended; cuts off a torn last record. */
  List<VersionRecord> loadFinalVersions(String tss) {
    Path log = tssDir.resolve(tss + VERSIONS_SUFFIX);
    List<VersionRecord> records = new ArrayList<>();
    if (!Files.exists(log)) {
      return records;
    }
    try {
      byte[] content = Files.readAllBytes(log);
      CodedInputStream in = CodedInputStream.newInstance(content);
      int validEnd = 0;
      while (!in.isAtEnd()) {
        try {
          int length = in.readRawVarint32();
          if (length < 0 || length > content.length - in.getTotalBytesRead()) {
            break;
          }
          records.add(VersionRecord.parseFrom(in.readRawBytes(length)));
          validEnd = in.getTotalBytesRead();
        } catch (InvalidProtocolBufferException e) {
          break;
        }
      }
      if (validEnd < content.length) {
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
          channel.truncate(validEnd);
          channel.force(true);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the version log " + log, e);
    }
    return records;
  }

  void deleteTss(String name) {
    try {
      Files.deleteIfExists(tssDir.resolve(name + VERSIONS_SUFFIX));
      Files.deleteIfExists(tssDir.resolve(name + ".json"));
      AtomicFiles.fsyncDirectory(tssDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the catalog entry of TSS " + name, e);
    }
  }

  /** Removes the catalog file of app {@code name}, durably. */
  void deleteApp(String name) {
    try {
      Files.deleteIfExists(appsDir.resolve(name + ".json"));
      AtomicFiles.fsyncDirectory(appsDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the catalog entry of app " + name, e);
    }
  }

  private void saveApp(AppInfo app) {
    write(appsDir.resolve(app.getSummary().getName() + ".json"), app);
  }

  private static void write(Path file, Message message) {
    try {
      AtomicFiles.write(file, PRINTER.print(message).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the catalog file " + file, e);
    }
  }

  private static void parse(Path file, Message.Builder builder) {
    try {
      PARSER.merge(Files.readString(file, StandardCharsets.UTF_8), builder);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "catalog file " + file + " is corrupt (" + e.getMessage() + "); restore it or remove it",
          e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the catalog file " + file, e);
    }
  }

  private static List<Path> jsonFiles(Path dir) {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "[A-Za-z_]*.json")) {
      stream.forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the catalog directory " + dir, e);
    }
    files.sort(null);
    return files;
  }
}
