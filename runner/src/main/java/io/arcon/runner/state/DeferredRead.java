package io.arcon.runner.state;

import java.util.function.Supplier;
import org.apache.beam.sdk.state.ReadableState;

/**
 * A ReadableState that reads the backend when {@link #read} is called (not when it was created),
 * for results that Beam specifies as reflecting later writes ({@code isEmpty}, map views, ...).
 */
final class DeferredRead<T> implements ReadableState<T> {
  private final Supplier<T> reader;

  DeferredRead(Supplier<T> reader) {
    this.reader = reader;
  }

  @Override
  public T read() {
    return reader.get();
  }

  @Override
  public ReadableState<T> readLater() {
    return this;
  }
}
