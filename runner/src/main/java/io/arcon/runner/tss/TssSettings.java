package io.arcon.runner.tss;

import io.arcon.runner.options.OnOff;
import io.arcon.runner.options.TransformGlob;
import io.arcon.tss.model.Names;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The checked form of {@link TssPipelineOptions}: refuses a bad value at {@code run()} with a
 * message naming the option and what it expects.
 *
 * @param enabled {@code --tss=on}
 * @param app the app name: {@code --jobName}, sanitized to a valid TSS name
 * @param exports the {@code --tssExport} globs
 * @param stateHistory {@code --stateHistory}
 */
public record TssSettings(
    boolean enabled,
    String app,
    String host,
    int port,
    Path home,
    String token,
    List<TransformGlob> exports,
    Duration stateHistory) {

  /**
   * @param defaultOn what an unset {@code --tss} means for this runner (on for ArconRunner)
   */
  public static TssSettings of(TssPipelineOptions options, boolean defaultOn) {
    boolean enabled = OnOff.parse("--tss", options.getTss(), defaultOn);
    String endpoint = options.getTssEndpoint();
    int colon = endpoint == null ? -1 : endpoint.lastIndexOf(':');
    if (colon <= 0 || colon == endpoint.length() - 1) {
      throw new IllegalArgumentException(
          "--tssEndpoint must be host:port, e.g. 127.0.0.1:47470; got '" + endpoint + "'");
    }
    String host = endpoint.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(endpoint.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "--tssEndpoint port must be a number from 1 to 65535; got '" + endpoint + "'");
    }
    Path home =
        options.getTssHome() == null || options.getTssHome().isBlank()
            ? Path.of(System.getProperty("user.home"), ".arcon", "tss")
            : Path.of(options.getTssHome());
    String token = options.getTssToken();
    if (token != null && token.isBlank()) {
      token = null;
    }
    List<TransformGlob> exports = exportGlobs(options.getTssExport());
    Duration history;
    try {
      history = Duration.parse(options.getStateHistory());
    } catch (DateTimeParseException | NullPointerException e) {
      throw new IllegalArgumentException(
          "--stateHistory must be an ISO-8601 duration such as PT1H or PT24H; got '"
              + options.getStateHistory()
              + "'");
    }
    if (history.isNegative() || history.isZero()) {
      throw new IllegalArgumentException(
          "--stateHistory must be positive, e.g. PT1H; got '" + options.getStateHistory() + "'");
    }
    return new TssSettings(
        enabled, Names.sanitize(options.getJobName()), host, port, home, token, exports, history);
  }

  /** The globs of a {@code --tssExport} value; empty for null or blank. */
  public static List<TransformGlob> exportGlobs(String tssExport) {
    List<TransformGlob> exports = new ArrayList<>();
    if (tssExport != null) {
      for (String glob : tssExport.split(",")) {
        if (!glob.isBlank()) {
          exports.add(TransformGlob.of(glob.trim()));
        }
      }
    }
    return List.copyOf(exports);
  }

  /** Whether {@code --tssExport} selects the transform {@code fullName}. */
  public boolean exports(String fullName) {
    return exports.stream().anyMatch(g -> g.matches(fullName));
  }

  public String endpoint() {
    return host + ":" + port;
  }
}
