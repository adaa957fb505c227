package io.arcon.tss.server;

import io.grpc.Status;

/** A request the control plane refuses; the message tells the user what to change. */
final class ControlPlaneException extends RuntimeException {
  private final Status.Code code;

  ControlPlaneException(Status.Code code, String message) {
    super(message);
    this.code = code;
  }

  Status.Code code() {
    return code;
  }

  static ControlPlaneException invalid(String message) {
    return new ControlPlaneException(Status.Code.INVALID_ARGUMENT, message);
  }

  static ControlPlaneException notFound(String message) {
    return new ControlPlaneException(Status.Code.NOT_FOUND, message);
  }
}
