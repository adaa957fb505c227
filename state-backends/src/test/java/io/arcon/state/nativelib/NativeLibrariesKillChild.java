package io.arcon.state.nativelib;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Env;
import org.rocksdb.RocksDB;

/**
 * Child JVM for {@link NativeLibrariesTest}: loads both native libraries, says READY and waits to
 * be killed.
 *
 * <p>Mode {@code backends} opens a RocksDB and an lmdb state backend (the libraries come from
 * {@link NativeLibraries}); mode {@code libraries-own-loaders} loads them the way rocksdbjni and
 * lmdbjava do by themselves, as the test's control.
 */
public final class NativeLibrariesKillChild {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Path dir = Path.of(args[1]);
    if (mode.equals("backends")) {
      StateBackend rocks = StateBackends.open(StateBackendConfig.of("rocksdb", dir.resolve("r")));
      rocks.table("t").put(new byte[] {1}, new byte[] {2});
      rocks.flush();
      StateBackend lmdb = StateBackends.open(StateBackendConfig.of("lmdb", dir.resolve("l")));
      lmdb.table("t").put(new byte[] {1}, new byte[] {2});
      lmdb.flush();
    } else if (mode.equals("libraries-own-loaders")) {
      RocksDB.loadLibrary();
      Path env = Files.createDirectories(dir.resolve("l"));
      // The byte-array proxy: lmdbjava's default one needs --add-opens in a plain JVM.
      Env.create(ByteArrayProxy.PROXY_BA).open(env.toFile()).close();
    } else {
      throw new IllegalArgumentException("unknown mode " + mode);
    }
    System.out.println("READY");
    System.out.flush();
    // Killed by the test long before this ends.
    Thread.sleep(120_000);
  }
}
