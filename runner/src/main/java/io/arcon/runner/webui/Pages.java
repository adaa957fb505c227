package io.arcon.runner.webui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The UI's files, served from the classpath ({@code io/arcon/runner/webui/static/}): nothing comes
 * from a CDN, the machine may be offline. The HTML pages carry the access token on to the scripts
 * and styles they load; the scripts pass it on to the API calls.
 */
final class Pages {
  private static final String ROOT = "/io/arcon/runner/webui/static/";
  private static final Pattern STATIC_NAME = Pattern.compile("[a-z0-9-]+\\.(js|css)");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8");

  /** The only place a page's HTML holds something of the request: the token's query part. */
  private static final String AUTH_PLACEHOLDER = "{{auth}}";

  private Pages() {}

  /** A file to send. */
  record Resource(String contentType, byte[] body) {}

  /** {@code index}, {@code job} or {@code tss}, with the token passed on to what it loads. */
  static Resource page(String name, String token) {
    String html = new String(load(name + ".html"), StandardCharsets.UTF_8);
    String auth =
        token == null
            ? ""
            : escapeHtml("?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    return new Resource(
        TYPES.get("html"), html.replace(AUTH_PLACEHOLDER, auth).getBytes(StandardCharsets.UTF_8));
  }

  /** A script or style sheet under {@code /static/}; empty for any other name. */
  static Optional<Resource> staticFile(String name) {
    if (!STATIC_NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    if (Pages.class.getResource(ROOT + name) == null) {
      return Optional.empty();
    }
    String extension = name.substring(name.lastIndexOf('.') + 1);
    return Optional.of(new Resource(TYPES.get(extension), load(name)));
  }

  private static byte[] load(String name) {
    try (InputStream in = Pages.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException(
            "The web UI's file " + ROOT + name + " is missing from the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Text as HTML text or attribute value. */
  static String escapeHtml(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
