package io.arcon.tss;

/** Defaults shared by the control plane, the CLI and the app-side agent. */
public final class TssDefaults {
  /** The control plane's default gRPC port; the CLI and embedded agents look here first. */
  public static final int PORT = 47470;

  /** Loopback by default: any other address requires a shared token. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** gRPC metadata key carrying {@code Bearer <token>}. */
  public static final String AUTHORIZATION_HEADER = "authorization";

  private TssDefaults() {}
}
