package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.client.TssClient;
import io.arcon.tss.proto.ServerInfo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedControlPlaneTest {
  @TempDir Path home;
  @TempDir Path otherHome;

  /** The real probe, except that its first answer is "nothing listens": a race lost after it. */
  private static EmbeddedControlPlane.Probe raceLostAfterFirstProbe() {
    AtomicInteger calls = new AtomicInteger();
    return (host, port) -> calls.getAndIncrement() > 0 && EmbeddedControlPlane.accepts(host, port);
  }

  @Test
  void theFirstStartsItTheSecondJoinsAndClosingFreesThePort() throws Exception {
    int port = TestSupport.freePort();
    Optional<EmbeddedControlPlane> first =
        EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, home, null);
    assertTrue(first.isPresent());
    try (EmbeddedControlPlane plane = first.get()) {
      assertEquals("127.0.0.1:" + port, plane.endpoint());
      assertEquals(home.toAbsolutePath(), plane.home());
      assertEquals(
          Optional.empty(),
          EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, otherHome, null));
      try (TssClient client = TssClient.connect("127.0.0.1", port, null)) {
        ServerInfo info = client.serverInfo();
        assertEquals(home.toAbsolutePath().toString(), info.getHome());
        assertEquals(home.resolve("lake").toUri().toString().replaceAll("/$", ""), info.getLake());
        assertEquals(0, client.showApps().size());
      }
    }
    try (ServerSocket freed = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
      assertEquals(port, freed.getLocalPort());
    }
    // The home is free again, too: a new embedded control plane takes it over.
    Optional<EmbeddedControlPlane> again =
        EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, home, null);
    assertTrue(again.isPresent());
    again.get().close();
  }

  @Test
  void aNonLoopbackHostWithoutATokenIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EmbeddedControlPlane.startIfNoneListening(
                    "0.0.0.0", TestSupport.freePort(), home, null));
    assertTrue(
        e.getMessage()
            .startsWith(
                "refusing to bind the TSS control plane to non-loopback address 0.0.0.0 without"
                    + " a token"),
        e.getMessage());
    assertTrue(e.getMessage().contains("--tssToken for a pipeline's"), e.getMessage());
  }

  @Test
  void aPortBoundByAnotherProcessAfterTheProbeIsJoined() throws Exception {
    int port = TestSupport.freePort();
    try (ServerSocket other = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
      assertEquals(
          Optional.empty(),
          EmbeddedControlPlane.startIfNoneListening(
              new ServerConfig(home, null, "127.0.0.1", port, null), raceLostAfterFirstProbe()));
    }
    // The loser left the home free.
    try (ControlPlaneServer server =
        ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null))) {
      assertTrue(server.port() > 0);
    }
  }

  @Test
  void aControlPlaneThatLockedTheHomeFirstOnTheSameEndpointIsJoined() {
    int port = TestSupport.freePort();
    try (ControlPlaneServer winner =
        ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null))) {
      assertEquals(
          Optional.empty(),
          EmbeddedControlPlane.startIfNoneListening(
              new ServerConfig(home, null, "127.0.0.1", port, null), raceLostAfterFirstProbe()));
    }
  }

  @Test
  void aHomeUsedByAControlPlaneAtAnotherEndpointIsRefusedNamingIt() {
    try (ControlPlaneServer other =
        ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null))) {
      int port = TestSupport.freePort();
      HomeInUseException e =
          assertThrows(
              HomeInUseException.class,
              () -> EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, home, null));
      assertEquals("127.0.0.1:" + other.port(), e.holderEndpoint());
      assertEquals(
          "the TSS home "
              + home.toAbsolutePath()
              + " is in use by another control plane (127.0.0.1:"
              + other.port()
              + " pid "
              + ProcessHandle.current().pid()
              + "); connect to that one, stop it, or give this one another home directory",
          e.getMessage());
      assertTrue(EmbeddedControlPlane.accepts("127.0.0.1", other.port()));
      assertTrue(!EmbeddedControlPlane.accepts("127.0.0.1", port), "nothing was started");
    }
  }
}
