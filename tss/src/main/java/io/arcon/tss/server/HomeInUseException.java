package io.arcon.tss.server;

/**
 * Another control plane runs on this home directory: two would overwrite each other's catalog and
 * commit the same versions twice.
 */
public final class HomeInUseException extends IllegalStateException {
  private final String holderEndpoint;

  HomeInUseException(String message, String holderEndpoint) {
    super(message);
    this.holderEndpoint = holderEndpoint;
  }

  /**
   * The endpoint ({@code host:port}) the other control plane said it listens on, or "" when it has
   * not written it yet (it is starting).
   */
  public String holderEndpoint() {
    return holderEndpoint;
  }
}
