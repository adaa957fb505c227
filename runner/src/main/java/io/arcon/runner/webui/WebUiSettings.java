package io.arcon.runner.webui;

import io.arcon.runner.options.OnOff;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The checked web UI options of one job.
 *
 * @param enabled {@code --webUi}
 * @param port {@code --webUiPort}: the first port tried
 * @param address {@code --webUiAddress}, resolved
 * @param token {@code --webUiToken}, null when none is required
 */
public record WebUiSettings(boolean enabled, int port, InetAddress address, String token) {

  /**
   * Checks the options; throws {@link IllegalArgumentException} saying what is wrong and what to
   * do.
   *
   * @param defaultOn what an unset {@code --webUi} means for this runner (on for ArconRunner)
   */
  public static WebUiSettings of(WebUiOptions options, boolean defaultOn) {
    boolean enabled = OnOff.parse("--webUi", options.getWebUi(), defaultOn);
    Integer port = options.getWebUiPort();
    if (port == null || port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "--webUiPort must be a port number from 1 to 65535; got " + port);
    }
    String addressText = options.getWebUiAddress();
    if (addressText == null || addressText.isBlank()) {
      throw new IllegalArgumentException(
          "--webUiAddress must be an address to listen on, e.g. 127.0.0.1 or 0.0.0.0");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(addressText.trim());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "--webUiAddress '" + addressText + "' is not an address of this machine: " + e, e);
    }
    String token = options.getWebUiToken();
    if (token != null && token.isBlank()) {
      token = null;
    }
    if (enabled && !address.isLoopbackAddress() && token == null) {
      throw new IllegalArgumentException(
          "--webUiAddress="
              + addressText
              + " exposes the web UI beyond this machine: give --webUiToken=<secret> too, or keep"
              + " the default loopback address.");
    }
    return new WebUiSettings(enabled, port, address, token);
  }
}
