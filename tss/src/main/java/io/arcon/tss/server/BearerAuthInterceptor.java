package io.arcon.tss.server;

import io.arcon.tss.TssDefaults;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Rejects every call that does not carry {@code authorization: Bearer <token>}. */
final class BearerAuthInterceptor implements ServerInterceptor {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of(TssDefaults.AUTHORIZATION_HEADER, Metadata.ASCII_STRING_MARSHALLER);
  private static final String PREFIX = "Bearer ";

  private final byte[] expected;

  BearerAuthInterceptor(String token) {
    this.expected = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String header = headers.get(AUTHORIZATION);
    String problem;
    if (header == null) {
      problem =
          "this TSS control plane requires a token, sent as 'authorization: Bearer <token>':"
              + " pass it with --token or $ARCON_TSS_TOKEN to the tss CLI, with --tssToken to a"
              + " pipeline";
    } else if (!header.startsWith(PREFIX)) {
      problem = "the authorization metadata must be 'Bearer <token>'";
    } else if (!MessageDigest.isEqual(
        expected, header.substring(PREFIX.length()).getBytes(StandardCharsets.UTF_8))) {
      // Constant-time comparison so the token cannot be guessed byte by byte from timings.
      problem = "wrong token";
    } else {
      return next.startCall(call, headers);
    }
    call.close(Status.UNAUTHENTICATED.withDescription(problem), new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
