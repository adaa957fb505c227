package io.arcon.portability.jobservice;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Metadata;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ServerCall;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ServerCallHandler;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ServerInterceptor;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;

/**
 * Rejects every call that does not carry the metadata {@code authorization: Bearer <token>}, with
 * UNAUTHENTICATED before the call's request is read.
 */
final class BearerTokenInterceptor implements ServerInterceptor {

  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String PREFIX = "Bearer ";

  private final byte[] expected;

  BearerTokenInterceptor(String token) {
    this.expected = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String header = headers.get(AUTHORIZATION);
    String problem;
    if (header == null) {
      problem =
          "this job server requires a token: send the metadata 'authorization: Bearer <token>'"
              + " with the token the server was started with (--token)";
    } else if (!header.startsWith(PREFIX)) {
      problem = "the authorization metadata must read 'Bearer <token>'";
    } else if (!MessageDigest.isEqual(
        expected, header.substring(PREFIX.length()).getBytes(StandardCharsets.UTF_8))) {
      // Constant-time comparison, so the token cannot be guessed byte by byte from timings.
      problem = "wrong token in the authorization metadata";
    } else {
      return next.startCall(call, headers);
    }
    call.close(Status.UNAUTHENTICATED.withDescription(problem), new Metadata());
    return new ServerCall.Listener<>() {};
  }
}
