package io.arcon.tss.cli;

import io.arcon.tss.TssDefaults;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A control-plane address, {@code host:port} or {@code [ipv6]:port}. */
record Endpoint(String host, int port) {
  static final String DEFAULT = TssDefaults.DEFAULT_HOST + ":" + TssDefaults.PORT;

  static Endpoint parse(String text) {
    String usage = "; use host:port, e.g. " + DEFAULT;
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("endpoint '" + text + "' has no port" + usage);
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "endpoint '"
              + text
              + "': write an IPv6 host in brackets, e.g. [::1]:"
              + TssDefaults.PORT);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("endpoint '" + text + "' has a non-numeric port" + usage);
    }
    if (host.isBlank() || port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "endpoint '" + text + "' needs a host and a port in 1..65535" + usage);
    }
    return new Endpoint(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** Lets picocli report a bad {@code --endpoint} as a usage error with our message. */
  static final class Converter implements ITypeConverter<Endpoint> {
    @Override
    public Endpoint convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
