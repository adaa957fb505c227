package io.arcon.runner.state;

import java.io.IOException;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;

/**
 * Decodes encoded keys (of one state read, of the timers a node fires), exactly as {@code
 * CoderUtils.decodeFromByteArray} does (outer context, every byte consumed), but through one reused
 * stream without locking.
 *
 * <p>Extraction decodes a key per row, and a keyed operator one per firing timer; {@code
 * CoderUtils} wraps each array in two streams, and its {@code ByteArrayInputStream} takes a lock on
 * every {@code read()}, which coders such as {@code VarLongCoder} call byte by byte. Not
 * thread-safe: one decoder per reading thread.
 */
public final class KeyDecoder {
  private final Coder<?> coder;
  private final ByteArrayInput input = new ByteArrayInput(new byte[0], 0);

  public KeyDecoder(Coder<?> coder) {
    this.coder = Objects.requireNonNull(coder, "coder");
  }

  /** The key {@code encoded} holds. */
  @SuppressWarnings("deprecation") // Context.OUTER: the context the keys were encoded with
  public Object decode(byte[] encoded) throws IOException {
    input.reset(encoded, 0);
    Object key = coder.decode(input, Coder.Context.OUTER);
    if (input.available() != 0) {
      throw new CoderException(
          input.available() + " unexpected extra bytes after decoding " + key + " with " + coder);
    }
    return key;
  }
}
