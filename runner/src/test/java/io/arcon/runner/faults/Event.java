package io.arcon.runner.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * One generated event. The slot (its index in the {@link EventStream}) travels with it so the fault
 * plans can pick the exact events that fail, whatever instance or attempt processes them.
 */
public record Event(long slot, String key, long value) {

  /** Encodes the three fields; deterministic, so events can be keys and state. */
  public static final class EventCoder extends AtomicCoder<Event> {
    private static final EventCoder INSTANCE = new EventCoder();

    public static EventCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(Event event, OutputStream out) throws IOException {
      VarLongCoder.of().encode(event.slot(), out);
      StringUtf8Coder.of().encode(event.key(), out);
      VarLongCoder.of().encode(event.value(), out);
    }

    @Override
    public Event decode(InputStream in) throws IOException {
      long slot = VarLongCoder.of().decode(in);
      String key = StringUtf8Coder.of().decode(in);
      long value = VarLongCoder.of().decode(in);
      return new Event(slot, key, value);
    }

    @Override
    public void verifyDeterministic() {}
  }
}
