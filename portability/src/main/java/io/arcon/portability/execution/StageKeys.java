package io.arcon.portability.execution;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * The keys of a keyed stage's input in the form SDK harnesses use in state requests: the key
 * encoded with the runner-side key coder in the nested context. The keyed edge routes by the same
 * bytes, so a key's state, timers and elements meet in one instance and rescale together.
 */
final class StageKeys implements Serializable {
  private final Coder<Object> keyCoder;

  @SuppressWarnings("unchecked")
  StageKeys(Coder<?> keyCoder) {
    this.keyCoder = (Coder<Object>) keyCoder;
  }

  Coder<Object> keyCoder() {
    return keyCoder;
  }

  byte[] encode(Object key) {
    try {
      ByteStringOutputStream out = new ByteStringOutputStream();
      keyCoder.encode(key, out);
      return out.toByteString().toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode the key " + key, e);
    }
  }

  Object decode(byte[] encoded) {
    try {
      return keyCoder.decode(new ByteArrayInputStream(encoded));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot decode a key of " + encoded.length + " bytes", e);
    }
  }

  /** The encoded key of a windowed KV element (a keyed edge's key extractor). */
  byte[] ofElement(Object element) {
    return encode(((KV<?, ?>) ((WindowedValue<?>) element).getValue()).getKey());
  }
}
