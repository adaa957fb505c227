package io.arcon.portability.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.LengthPrefixCoder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TimestampedValue;

/**
 * Values in the form the runner's wire coders hold them. Where the runner does not know a coder (a
 * user's or another SDK's), its wire coder is {@code LengthPrefixCoder<ByteArrayCoder>} and the
 * value is the SDK coder's nested encoding; known coders (KV, iterables, standard ones) keep their
 * structure. Values the runner creates from the SDK's own encoding (TestStream events) are turned
 * into that form here.
 */
final class RunnerForm {
  private RunnerForm() {}

  /** {@code value}, decoded by {@code sdkCoder}, in the form {@code runnerCoder} encodes. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Object of(Object value, Coder<?> sdkCoder, Coder<?> runnerCoder) {
    if (runnerCoder instanceof LengthPrefixCoder<?> lp
        && lp.getValueCoder() instanceof ByteArrayCoder
        && !(sdkCoder instanceof LengthPrefixCoder<?>)) {
      try {
        ByteStringOutputStream out = new ByteStringOutputStream();
        ((Coder<Object>) sdkCoder).encode(value, out);
        return out.toByteString().toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot encode " + value + " with " + sdkCoder, e);
      }
    }
    if (runnerCoder instanceof LengthPrefixCoder<?> lp
        && sdkCoder instanceof LengthPrefixCoder<?> s) {
      return of(value, s.getValueCoder(), lp.getValueCoder());
    }
    if (runnerCoder instanceof LengthPrefixCoder<?> lp) {
      return of(value, sdkCoder, lp.getValueCoder());
    }
    if (runnerCoder instanceof KvCoder<?, ?> rkv && sdkCoder instanceof KvCoder<?, ?> skv) {
      KV<?, ?> kv = (KV<?, ?>) value;
      return KV.of(
          of(kv.getKey(), skv.getKeyCoder(), rkv.getKeyCoder()),
          of(kv.getValue(), skv.getValueCoder(), rkv.getValueCoder()));
    }
    if (runnerCoder instanceof IterableCoder<?> ri && sdkCoder instanceof IterableCoder<?> si) {
      List<Object> out = new ArrayList<>();
      for (Object o : (Iterable<?>) value) {
        out.add(of(o, si.getElemCoder(), ri.getElemCoder()));
      }
      return out;
    }
    return value;
  }

  /** A TestStream's events with their elements in runner form. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static List<TestStream.Event<Object>> testStreamEvents(
      List<? extends TestStream.Event<?>> events, Coder<?> sdkCoder, Coder<?> runnerCoder) {
    List<TestStream.Event<Object>> out = new ArrayList<>();
    for (TestStream.Event<?> event : events) {
      if (event instanceof TestStream.ElementEvent<?> elements) {
        List<TimestampedValue<Object>> converted = new ArrayList<>();
        for (TimestampedValue<?> tv : elements.getElements()) {
          converted.add(
              TimestampedValue.of(of(tv.getValue(), sdkCoder, runnerCoder), tv.getTimestamp()));
        }
        out.add((TestStream.Event) TestStream.ElementEvent.add(converted));
      } else {
        out.add((TestStream.Event<Object>) event);
      }
    }
    return out;
  }
}
