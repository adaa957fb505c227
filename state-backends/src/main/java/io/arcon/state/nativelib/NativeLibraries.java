package io.arcon.state.nativelib;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the state backends' native libraries (RocksDB's JNI library, LMDB) from one kept copy per
 * user and library version instead of a new temp file per JVM.
 *
 * <p>rocksdbjni and lmdbjava each copy their library out of the jar to a randomly named file in
 * {@code java.io.tmpdir} and delete it only with {@code deleteOnExit}, so every JVM killed with
 * SIGKILL (or ended with {@code Runtime.halt}) leaves one behind: 15 MB for RocksDB. Here a library
 * is extracted to {@code <dir>/<library>-<CRC32 of the jar entry>/<file>}: written to a temp file
 * in that directory, checked against the jar entry's size and CRC32, renamed into place atomically
 * and never deleted. Concurrent JVMs share it (one that finds a good copy already there uses it), a
 * killed JVM leaves nothing new, and an existing copy whose size or CRC32 differs from the jar
 * entry (cut short by a crash, say) is replaced atomically, never loaded. A new library version
 * gets a new directory.
 *
 * <p>{@code <dir>} is the system property {@value #DIRECTORY_PROPERTY} if set, else {@code
 * ${java.io.tmpdir}/arcon-native-${user.name}}, which is created readable by its user only and
 * refused (with a fallback to the library's own loader) if it exists owned by someone else or
 * writable by others: whatever library is found there gets loaded into the JVM.
 *
 * <p>If anything fails (a read-only or full tmpdir, say), each library falls back to its own
 * loader, with a warning that names the reason.
 */
public final class NativeLibraries {
  /** System property naming the directory the libraries are kept in (default: see the class). */
  public static final String DIRECTORY_PROPERTY = "arcon.native.dir";

  /** lmdbjava 0.9's property naming an LMDB library file to load instead of its embedded one. */
  static final String LMDB_NATIVE_LIB_PROPERTY = "lmdbjava.native.lib";

  /** lmdbjava 0.9's property naming which embedded library to extract. */
  static final String LMDB_EMBEDDED_LIB_PROPERTY = "lmdbjava.embedded.lib";

  /** Temp files older than this in a library's directory are from a JVM killed mid-extraction. */
  private static final Duration STALE_TEMP_AGE = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(NativeLibraries.class);

  /** Serialises extractions within this JVM, so concurrent callers extract once. */
  private static final Object EXTRACTING = new Object();

  private static boolean rocksDbLoaded;
  private static boolean lmdbPrepared;

  private NativeLibraries() {}

  /**
   * Loads RocksDB's JNI library, once per JVM: from the kept copy, else (with a warning) through
   * {@link RocksDB#loadLibrary()}. Left to {@link RocksDB#loadLibrary()} alone when the user points
   * RocksDB at a library of their own ({@code ROCKSDB_SHAREDLIB_DIR}, or one on {@code
   * java.library.path}).
   */
  public static synchronized void loadRocksDb() {
    if (rocksDbLoaded) {
      return;
    }
    String userChoice = rocksDbUserChoice();
    if (userChoice != null) {
      LOG.debug("Loading RocksDB's library the way it chooses: {}", userChoice);
      RocksDB.loadLibrary();
    } else {
      try {
        Path file = extractRocksDb(directory());
        // Loads <dir>/<Environment.getJniLibraryFileName("rocksdbjni")>, the name extracted to.
        RocksDB.loadLibrary(List.of(file.getParent().toString()));
        LOG.debug("Loaded RocksDB's library from {}", file);
      } catch (IOException | RuntimeException | LinkageError e) {
        LOG.warn(
            "Cannot load RocksDB's native library from a kept copy ({}); RocksDB extracts it to a"
                + " temp file of its own, which stays behind if this JVM is killed",
            e.toString());
        RocksDB.loadLibrary();
      }
    }
    rocksDbLoaded = true;
  }

  /**
   * Points lmdbjava at the kept copy of its LMDB library (by setting {@value
   * #LMDB_NATIVE_LIB_PROPERTY}), once per JVM. Must run before lmdbjava's {@code Library} class is
   * initialised (the first {@code Env} opened), since lmdbjava reads the property then. Does
   * nothing when the user has set {@value #LMDB_NATIVE_LIB_PROPERTY} or {@value
   * #LMDB_EMBEDDED_LIB_PROPERTY} themselves; on failure it warns and leaves lmdbjava to extract the
   * library itself.
   */
  public static synchronized void prepareLmdb() {
    if (lmdbPrepared) {
      return;
    }
    lmdbPrepared = true;
    for (String property : List.of(LMDB_NATIVE_LIB_PROPERTY, LMDB_EMBEDDED_LIB_PROPERTY)) {
      String value = System.getProperty(property);
      if (value != null && !value.isEmpty()) {
        LOG.debug("lmdbjava loads LMDB as set by the user: {}={}", property, value);
        return;
      }
    }
    try {
      Path file = extractLmdb(directory());
      System.setProperty(LMDB_NATIVE_LIB_PROPERTY, file.toString());
      LOG.debug("lmdbjava loads LMDB from {}", file);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Cannot keep a copy of LMDB's native library ({}); lmdbjava extracts it to a temp file"
              + " of its own, which stays behind if this JVM is killed",
          e.toString());
    }
  }

  /**
   * The directory libraries are kept in: {@value #DIRECTORY_PROPERTY}, else a private directory
   * under {@code java.io.tmpdir}, created if missing.
   *
   * @throws IOException if it cannot be created, or the default one is not private to this user
   */
  static Path directory() throws IOException {
    String configured = System.getProperty(DIRECTORY_PROPERTY);
    if (configured != null && !configured.isEmpty()) {
      Path dir = Path.of(configured).toAbsolutePath();
      Files.createDirectories(dir);
      return dir;
    }
    String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "arcon-native-" + user);
    return privateDirectory(dir.toAbsolutePath());
  }

  /**
   * Creates {@code dir} readable by this user only, or checks that the existing one is a real
   * directory owned by this user and writable by nobody else. A no-op check where the file system
   * has no POSIX permissions.
   */
  static Path privateDirectory(Path dir) throws IOException {
    if (!dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(dir);
      return dir;
    }
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException raced) {
        // Another JVM created it meanwhile: checked below like any existing one.
      }
    }
    PosixFileAttributes attributes =
        Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isDirectory()) {
      throw new IOException(dir + " exists and is not a directory (or is a symbolic link)");
    }
    UserPrincipal me =
        dir.getFileSystem()
            .getUserPrincipalLookupService()
            .lookupPrincipalByName(System.getProperty("user.name"));
    if (!attributes.owner().equals(me)) {
      throw new IOException(dir + " is owned by " + attributes.owner() + ", not by " + me);
    }
    if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
        || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(
          dir
              + " is writable by others ("
              + PosixFilePermissions.toString(attributes.permissions())
              + ")");
    }
    return dir;
  }

  /** Extracts RocksDB's JNI library for this platform under {@code root}. */
  static Path extractRocksDb(Path root) throws IOException {
    ClassLoader loader = RocksDB.class.getClassLoader();
    // The jar entry NativeLibraryLoader extracts, or its fallback when the jar has none.
    String resource = Environment.getJniLibraryFileName("rocksdb");
    String fallback = Environment.getFallbackJniLibraryFileName("rocksdb");
    if (loader.getResource(resource) == null && fallback != null) {
      resource = fallback;
    }
    // The file RocksDB.loadLibrary(List) loads from each directory it is given (the name doubles
    // "jni": librocksdbjnijni-linux64.so on 64-bit glibc Linux).
    String fileName = Environment.getJniLibraryFileName("rocksdbjni");
    return extract(root, loader, resource, "rocksdbjni", fileName).file();
  }

  /** Extracts lmdbjava's embedded LMDB library for this platform under {@code root}. */
  static Path extractLmdb(Path root) throws IOException {
    // The class literal loads Env without initialising it, so lmdbjava's Library stays untouched.
    ClassLoader loader = org.lmdbjava.Env.class.getClassLoader();
    String resource = lmdbResource(System.getProperty("os.arch"), System.getProperty("os.name"));
    String fileName = resource.substring(resource.lastIndexOf('/') + 1);
    return extract(root, loader, resource, "lmdbjava", fileName).file();
  }

  /**
   * The jar entry lmdbjava 0.9's {@code TargetName} picks for this platform (which cannot be asked:
   * initialising it fixes the library path before {@link #prepareLmdb} can set it).
   */
  static String lmdbResource(String osArch, String osName) {
    String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ENGLISH);
    String os = osName == null ? "" : osName.toLowerCase(Locale.ENGLISH);
    String resolvedArch;
    if (arch.startsWith("aarch64")) {
      resolvedArch = "aarch64";
    } else if (arch.startsWith("x86_64") || arch.startsWith("amd64")) {
      resolvedArch = "x86_64";
    } else {
      throw new UnsupportedOperationException("lmdbjava ships no LMDB for os.arch=" + osArch);
    }
    String resolvedOs;
    if (os.startsWith("linux")) {
      resolvedOs = "linux-gnu.so";
    } else if (os.startsWith("mac os")) {
      resolvedOs = "macos-none.so";
    } else if (os.startsWith("windows")) {
      resolvedOs = "windows-gnu.dll";
    } else {
      throw new UnsupportedOperationException("lmdbjava ships no LMDB for os.name=" + osName);
    }
    return "org/lmdbjava/" + resolvedArch + "-" + resolvedOs;
  }

  /** Where a library is, and whether this call wrote it (false: an existing copy was reused). */
  record Extraction(Path file, boolean extracted) {}

  /**
   * Makes {@code <root>/<library>-<crc32>/<fileName>} a copy of {@code resource}, extracting it
   * only if no good copy is there.
   */
  static Extraction extract(
      Path root, ClassLoader loader, String resource, String library, String fileName)
      throws IOException {
    URL url = loader.getResource(resource);
    if (url == null) {
      throw new FileNotFoundException(resource + " is not on the class path");
    }
    Fingerprint expected = Fingerprint.of(url);
    Path dir = root.resolve(library + "-" + String.format("%08x", expected.crc()));
    Path target = dir.resolve(fileName);
    synchronized (EXTRACTING) {
      if (expected.matches(target)) {
        return new Extraction(target, false);
      }
      Files.createDirectories(dir);
      deleteStaleTemps(dir, fileName);
      Path temp = Files.createTempFile(dir, fileName + ".", ".tmp");
      try {
        try (InputStream in = url.openStream()) {
          Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!expected.matches(temp)) {
          throw new IOException("The copy of " + url + " in " + temp + " differs from it");
        }
        if (expected.matches(target)) {
          // Another JVM put a good copy there meanwhile: use that one.
          return new Extraction(target, false);
        }
        // Replaces a bad copy (cut short, say) in one step: no JVM ever sees a partial file.
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        LOG.info("Extracted {} to {} (kept for later JVMs)", resource, target);
        return new Extraction(target, true);
      } finally {
        Files.deleteIfExists(temp);
      }
    }
  }

  /** Removes temp files left by JVMs killed while extracting. */
  private static void deleteStaleTemps(Path dir, String fileName) {
    FileTime cutoff = FileTime.from(Instant.now().minus(STALE_TEMP_AGE));
    try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, fileName + ".*.tmp")) {
      for (Path temp : temps) {
        if (Files.getLastModifiedTime(temp, LinkOption.NOFOLLOW_LINKS).compareTo(cutoff) < 0) {
          Files.deleteIfExists(temp);
        }
      }
    } catch (IOException e) {
      LOG.debug("Cannot clean up old temp files in {}: {}", dir, e.toString());
    }
  }

  /**
   * Why RocksDB's own loader should run (the user pointed it at a library), or null. It tries
   * {@code java.library.path} before its jar, and extracts into {@code ROCKSDB_SHAREDLIB_DIR}
   * (under a fixed name, so nothing piles up there) when that is set.
   */
  private static String rocksDbUserChoice() {
    String sharedLibDir = System.getenv("ROCKSDB_SHAREDLIB_DIR");
    if (sharedLibDir != null && !sharedLibDir.isEmpty()) {
      return "ROCKSDB_SHAREDLIB_DIR=" + sharedLibDir;
    }
    String libraryPath = System.getProperty("java.library.path", "");
    List<String> names =
        List.of(
            System.mapLibraryName(Environment.getSharedLibraryName("rocksdb")),
            System.mapLibraryName(Environment.getJniLibraryName("rocksdb")));
    for (String entry : libraryPath.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      for (String name : names) {
        try {
          if (Files.isRegularFile(Path.of(entry, name))) {
            return Path.of(entry, name) + " on java.library.path";
          }
        } catch (RuntimeException invalidPath) {
          // An entry that is no path cannot hold a library.
        }
      }
    }
    return null;
  }

  /** A library's size and CRC32, from its jar entry (or, outside a jar, by reading it). */
  private record Fingerprint(long size, long crc) {
    static Fingerprint of(URL url) throws IOException {
      URLConnection connection = url.openConnection();
      if (connection instanceof JarURLConnection jar) {
        JarEntry entry = jar.getJarEntry();
        if (entry != null && entry.getSize() >= 0 && entry.getCrc() >= 0) {
          return new Fingerprint(entry.getSize(), entry.getCrc());
        }
      }
      try (InputStream in = url.openStream()) {
        return of(in);
      }
    }

    static Fingerprint of(InputStream in) throws IOException {
      CRC32 crc = new CRC32();
      byte[] buffer = new byte[1 << 16];
      long size = 0;
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
        size += n;
      }
      return new Fingerprint(size, crc.getValue());
    }

    /** True if {@code file} is a regular file with this size and CRC32. */
    boolean matches(Path file) throws IOException {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) != size) {
        return false;
      }
      try (InputStream in = Files.newInputStream(file)) {
        return of(in).equals(this);
      }
    }
  }
}
