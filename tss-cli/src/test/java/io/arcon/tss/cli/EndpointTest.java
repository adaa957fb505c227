package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EndpointTest {
  @Test
  void parsesHostPortAndBracketedIpv6() {
    assertEquals(new Endpoint("127.0.0.1", 47470), Endpoint.parse(Endpoint.DEFAULT));
    assertEquals(new Endpoint("tss.example.com", 1), Endpoint.parse("tss.example.com:1"));
    assertEquals(new Endpoint("::1", 9000), Endpoint.parse("[::1]:9000"));
    assertEquals("[::1]:9000", new Endpoint("::1", 9000).toString());
  }

  @Test
  void rejectsWithTheFix() {
    assertEquals(
        "endpoint 'localhost' has no port; use host:port, e.g. 127.0.0.1:47470",
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("localhost"))
            .getMessage());
    assertEquals(
        "endpoint 'h:x' has a non-numeric port; use host:port, e.g. 127.0.0.1:47470",
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("h:x")).getMessage());
    assertEquals(
        "endpoint 'h:70000' needs a host and a port in 1..65535; use host:port, e.g."
            + " 127.0.0.1:47470",
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("h:70000")).getMessage());
    assertEquals(
        "endpoint '::1:5': write an IPv6 host in brackets, e.g. [::1]:47470",
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("::1:5")).getMessage());
  }
}
