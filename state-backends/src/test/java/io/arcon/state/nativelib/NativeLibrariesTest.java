package io.arcon.state.nativelib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Env;
import org.rocksdb.util.Environment;

class NativeLibrariesTest {
  /** A library inside a jar on the class path (lmdbjava's), whatever the platform. */
  private static final String JAR_RESOURCE = "org/lmdbjava/x86_64-linux-gnu.so";

  private static final ClassLoader LOADER = Env.class.getClassLoader();

  @Test
  void concurrentCallsExtractOnceAndLaterCallsReuseTheFile(@TempDir Path root) throws Exception {
    int threads = 4;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<NativeLibraries.Extraction> results = new ArrayList<>();
    try {
      List<Future<NativeLibraries.Extraction>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return NativeLibraries.extract(root, LOADER, JAR_RESOURCE, "test", "libtest.so");
                }));
      }
      for (Future<NativeLibraries.Extraction> f : futures) {
        results.add(f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, results.stream().filter(NativeLibraries.Extraction::extracted).count());
    Path file = results.get(0).file();
    for (NativeLibraries.Extraction r : results) {
      assertEquals(file, r.file());
    }
    assertTrue(
        file.getParent().getFileName().toString().matches("test-[0-9a-f]{8}"), file.toString());
    assertArrayEquals(resourceBytes(JAR_RESOURCE), Files.readAllBytes(file));
    Object inode = fileKey(file);

    NativeLibraries.Extraction again =
        NativeLibraries.extract(root, LOADER, JAR_RESOURCE, "test", "libtest.so");
    assertFalse(again.extracted());
    assertEquals(file, again.file());
    assertEquals(inode, fileKey(file), "the kept file was rewritten");
    assertEquals(Map.of(file.getParent().getFileName() + "/libtest.so", inode), tree(root));
  }

  @Test
  void aResourceOutsideAJarIsCheckedByItsContent(@TempDir Path root) throws Exception {
    String resource = NativeLibrariesTest.class.getName().replace('.', '/') + ".class";
    NativeLibraries.Extraction first =
        NativeLibraries.extract(root, LOADER, resource, "plain", "plain.bin");
    assertTrue(first.extracted());
    assertArrayEquals(resourceBytes(resource), Files.readAllBytes(first.file()));
    assertFalse(NativeLibraries.extract(root, LOADER, resource, "plain", "plain.bin").extracted());
  }

  @Test
  void aTruncatedOrCorruptCopyIsReplacedNotReused(@TempDir Path root) throws Exception {
    byte[] expected = resourceBytes(JAR_RESOURCE);
    Path file = NativeLibraries.extract(root, LOADER, JAR_RESOURCE, "test", "libtest.so").file();

    // Cut short, as by a crash of an older loader.
    Files.write(file, Arrays.copyOf(expected, expected.length / 2));
    Object truncatedInode = fileKey(file);
    NativeLibraries.Extraction replaced =
        NativeLibraries.extract(root, LOADER, JAR_RESOURCE, "test", "libtest.so");
    assertTrue(replaced.extracted());
    assertEquals(file, replaced.file());
    assertArrayEquals(expected, Files.readAllBytes(file));
    assertNotEquals(truncatedInode, fileKey(file), "replaced in place instead of renamed over");

    // Right size, one byte wrong; plus temp files: one left by a JVM killed long ago (removed),
    // one that another JVM may still be writing (kept).
    byte[] corrupt = expected.clone();
    corrupt[corrupt.length / 3] ^= 1;
    Files.write(file, corrupt);
    Path stale = Files.writeString(file.resolveSibling("libtest.so.111.tmp"), "stale");
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(3600)));
    Path fresh = Files.writeString(file.resolveSibling("libtest.so.222.tmp"), "in progress");
    assertTrue(
        NativeLibraries.extract(root, LOADER, JAR_RESOURCE, "test", "libtest.so").extracted());
    assertArrayEquals(expected, Files.readAllBytes(file));
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(fresh));
    Files.delete(fresh);
    assertEquals(
        List.of(file.getParent().getFileName() + "/libtest.so"), List.copyOf(tree(root).keySet()));
  }

  @Test
  void theDefaultDirectoryIsCreatedPrivateAndRefusedIfOthersCanWriteIt(@TempDir Path root)
      throws Exception {
    assumeTrue(root.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX only");
    Path created = NativeLibraries.privateDirectory(root.resolve("created"));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(created, LinkOption.NOFOLLOW_LINKS)));
    assertEquals(created, NativeLibraries.privateDirectory(created));

    Path open = Files.createDirectory(root.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    IOException refused =
        assertThrows(IOException.class, () -> NativeLibraries.privateDirectory(open));
    assertTrue(refused.getMessage().contains("writable by others"), refused.getMessage());

    Path link = Files.createSymbolicLink(root.resolve("link"), created);
    assertThrows(IOException.class, () -> NativeLibraries.privateDirectory(link));
  }

  @Test
  void lmdbResourcesAreTheOnesInLmdbjavasJar() {
    for (String[] platform :
        new String[][] {
          {"amd64", "Linux"},
          {"x86_64", "Linux"},
          {"aarch64", "Linux"},
          {"x86_64", "Mac OS X"},
          {"aarch64", "Mac OS X"},
          {"amd64", "Windows 11"},
        }) {
      String resource = NativeLibraries.lmdbResource(platform[0], platform[1]);
      assertNotNull(LOADER.getResource(resource), resource + " for " + Arrays.toString(platform));
    }
    assertThrows(
        UnsupportedOperationException.class, () -> NativeLibraries.lmdbResource("sparc", "Linux"));
  }

  /**
   * The defect this class fixes, end to end: a plain child JVM opens a RocksDB and an lmdb backend
   * with {@code java.io.tmpdir} pointed at a fresh directory and is killed with SIGKILL; no library
   * copy may be left directly in that tmpdir, and the kept directory holds one copy per library,
   * which a second child reuses.
   */
  @Test
  void aKilledJvmLeavesNoLibraryInTmpAndTheNextOneReusesTheKeptCopies(@TempDir Path work)
      throws Exception {
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    runAndKill("backends", tmp, work.resolve("data-1"), work.resolve("child-1.log"));
    assertEquals(List.of(), leftInTmp(tmp));
    Path kept = keptDirectory(tmp);
    Map<String, Object> files = tree(kept);
    assertEquals(2, files.size(), files.toString());
    String rocksDb = Environment.getJniLibraryFileName("rocksdbjni");
    String lmdbResource =
        NativeLibraries.lmdbResource(System.getProperty("os.arch"), System.getProperty("os.name"));
    String lmdb = lmdbResource.substring(lmdbResource.lastIndexOf('/') + 1);
    assertEquals(
        1,
        files.keySet().stream().filter(f -> f.matches("rocksdbjni-[0-9a-f]{8}/" + rocksDb)).count(),
        files.toString());
    assertEquals(
        1,
        files.keySet().stream().filter(f -> f.matches("lmdbjava-[0-9a-f]{8}/" + lmdb)).count(),
        files.toString());

    runAndKill("backends", tmp, work.resolve("data-2"), work.resolve("child-2.log"));
    assertEquals(List.of(), leftInTmp(tmp));
    assertEquals(files, tree(kept), "the second JVM extracted again instead of reusing");
    String secondLog = Files.readString(work.resolve("child-2.log"), StandardCharsets.UTF_8);
    assertFalse(secondLog.contains("Extracted"), secondLog);
    assertFalse(secondLog.contains("WARN"), secondLog);
  }

  /**
   * The control for the test above: rocksdbjni's and lmdbjava's own loaders do leave their copies
   * in the tmpdir of a killed JVM, so that test looks where the leak shows. (If this starts to fail
   * after an upgrade, the libraries may have stopped leaking.)
   */
  @Test
  void controlTheLibrariesOwnLoadersLeaveCopiesBehindWhenKilled(@TempDir Path work)
      throws Exception {
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    runAndKill("libraries-own-loaders", tmp, work.resolve("data"), work.resolve("child.log"));
    List<String> left = leftInTmp(tmp);
    assertTrue(left.stream().anyMatch(n -> n.startsWith("librocksdbjni")), left.toString());
    assertTrue(left.stream().anyMatch(n -> n.startsWith("lmdbjava")), left.toString());
  }

  private static void runAndKill(String mode, Path tmp, Path data, Path log) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-Djava.io.tmpdir=" + tmp,
            "-cp",
            System.getProperty("java.class.path"),
            NativeLibrariesKillChild.class.getName(),
            mode,
            data.toString());
    Process child =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.readString(log, StandardCharsets.UTF_8).contains("READY")) {
        if (!child.isAlive() || System.nanoTime() > deadline) {
          throw new AssertionError(
              "the child JVM ("
                  + mode
                  + ") did not get ready:\n"
                  + Files.readString(log, StandardCharsets.UTF_8));
        }
        Thread.sleep(50);
      }
    } finally {
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no deleteOnExit
    }
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the killed child JVM did not end");
    assertEquals(137, child.exitValue(), "not ended by SIGKILL");
  }

  /** Library copies directly in {@code tmp}, where the libraries' own loaders put theirs. */
  private static List<String> leftInTmp(Path tmp) throws IOException {
    try (Stream<Path> entries = Files.list(tmp)) {
      return entries
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("librocksdbjni") || n.startsWith("lmdbjava"))
          .sorted()
          .toList();
    }
  }

  private static Path keptDirectory(Path tmp) throws IOException {
    try (Stream<Path> entries = Files.list(tmp)) {
      List<Path> kept =
          entries.filter(p -> p.getFileName().toString().startsWith("arcon-native-")).toList();
      assertEquals(1, kept.size(), kept.toString());
      return kept.get(0);
    }
  }

  /** Every regular file under {@code root}, by relative path, with its file key (inode). */
  private static Map<String, Object> tree(Path root) throws IOException {
    Map<String, Object> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(p).toString().replace('\\', '/'), fileKey(p));
      }
    }
    return files;
  }

  private static Object fileKey(Path file) throws IOException {
    Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    return key != null ? key : Files.getLastModifiedTime(file);
  }

  private static byte[] resourceBytes(String resource) throws IOException {
    try (InputStream in = LOADER.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      return in.readAllBytes();
    }
  }
}
