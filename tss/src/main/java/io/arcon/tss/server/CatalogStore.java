package io.arcon.tss.server;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.arcon.tss.proto.AppInfo;
import io.arcon.tss.proto.TssCatalogEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The control plane's durable catalog in its home directory, one protobuf-JSON file per object so
 * every change rewrites one small file atomically:
 *
 * <pre>
 * home/catalog/tss/&lt;name&gt;.json   definition + version catalog (TssCatalogEntry)
 * home/catalog/apps/&lt;name&gt;.json  last registered state catalog of an app (AppInfo)
 * </pre>
 *
 * Names are checked identifiers before they get here, so they are safe file names.
 */
final class CatalogStore {
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

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

  List<TssCatalogEntry> loadTss() {
    List<TssCatalogEntry> entries = new ArrayList<>();
    for (Path file : jsonFiles(tssDir)) {
      TssCatalogEntry.Builder builder = TssCatalogEntry.newBuilder();
      parse(file, builder);
      entries.add(builder.build());
    }
    return entries;
  }

  List<AppInfo> loadApps() {
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

  void deleteTss(String name) {
    try {
      Files.deleteIfExists(tssDir.resolve(name + ".json"));
      AtomicFiles.fsyncDirectory(tssDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the catalog entry of TSS " + name, e);
    }
  }

  void saveApp(AppInfo app) {
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
