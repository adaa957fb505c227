package io.arcon.tss.server;

import io.grpc.Status;
import java.util.function.Supplier;

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

  /**
   * Runs a check that refuses with {@link IllegalArgumentException} (such as {@link
   * io.arcon.tss.model.Names#requireValid}) and turns its refusal into {@code INVALID_ARGUMENT}.
   */
  static <T> T asInvalid(Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }
}
