package io.arcon.tss.client;

import io.grpc.Status;

/** A call to the control plane failed; the message is the control plane's reason. */
public class TssClientException extends RuntimeException {
  private final Status.Code code;

  public TssClientException(String message, Status.Code code, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  /** The gRPC status code, e.g. INVALID_ARGUMENT for a refused statement. */
  public Status.Code code() {
    return code;
  }
}
