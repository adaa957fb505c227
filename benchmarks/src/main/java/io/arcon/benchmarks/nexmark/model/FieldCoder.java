package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * Base of the model's Beam coders: a record is its fields in order, longs as var-ints, strings as
 * length-prefixed UTF-8. Every field encoding is deterministic, so the records can be grouping
 * keys, and records compare by value, so a coder's structural value is the record itself.
 */
public abstract class FieldCoder<T> extends AtomicCoder<T> {
  private static final VarLongCoder LONG = VarLongCoder.of();
  private static final StringUtf8Coder STRING = StringUtf8Coder.of();
  private static final DoubleCoder DOUBLE = DoubleCoder.of();

  protected static void writeLong(long value, OutputStream out) throws IOException {
    LONG.encode(value, out);
  }

  protected static long readLong(InputStream in) throws IOException {
    return LONG.decode(in);
  }

  protected static void writeString(String value, OutputStream out) throws IOException {
    STRING.encode(value, out);
  }

  protected static String readString(InputStream in) throws IOException {
    return STRING.decode(in);
  }

  protected static void writeDouble(double value, OutputStream out) throws IOException {
    DOUBLE.encode(value, out);
  }

  protected static double readDouble(InputStream in) throws IOException {
    return DOUBLE.decode(in);
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
