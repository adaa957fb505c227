package io.arcon.state;

/** A failure of a state engine (I/O, native error, bad configuration). */
public class StateBackendException extends RuntimeException {
  public StateBackendException(String message) {
    super(message);
  }

  public StateBackendException(String message, Throwable cause) {
    super(message, cause);
  }
}
