package io.arcon.runner.operators;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;

/**
 * Elements of one window, each with the key bytes it arrived under, held encoded in chunks of
 * bytes, in arrival order: what {@link PushedBackInput} keeps per window while a side input is not
 * ready.
 *
 * <p>Why encoded: a windowed side input holds back the main input of whole windows, and a bounded
 * input holds all of it until the input ends (its watermark stays at the start until then). Held as
 * objects (an element, its value's fields, its timestamp and pane, the key bytes), every young
 * collection traced and copied all of them: in Nexmark Q7 the collector's pauses took more than
 * half of a run. Here they are a few large byte arrays that the collector copies without looking
 * inside.
 *
 * <p>A record is {@code [flags][key][timestamp][pane][record id][record offset][value]}: the window
 * is the group's, so only what differs between elements is written (the pane only when it is not
 * {@link PaneInfo#NO_FIRING}), and each element comes back as it went in (timestamp, pane, record
 * id and offset, drain mode included), in its one window.
 */
final class EncodedWindowElements<InT> {
  private static final int FIRST_CHUNK = 4 << 10;
  private static final int MAX_CHUNK = 1 << 20;

  private static final int HAS_KEY = 1;
  private static final int HAS_RECORD_ID = 2;
  private static final int HAS_RECORD_OFFSET = 4;
  private static final int CAUSED_BY_DRAIN = 8;

  /** The pane is written; without the flag it is {@link PaneInfo#NO_FIRING}, as most are. */
  private static final int HAS_PANE = 16;

  private final BoundedWindow window;
  private final Coder<InT> valueCoder;
  private final List<byte[]> chunks = new ArrayList<>();
  private final ChunkedOutput out = new ChunkedOutput();
  private int size;
  private long minTimestamp = Long.MAX_VALUE;

  EncodedWindowElements(BoundedWindow window, Coder<InT> valueCoder) {
    this.window = window;
    this.valueCoder = valueCoder;
  }

  int size() {
    return size;
  }

  /** The smallest timestamp held, or {@code Long.MAX_VALUE}. */
  long minTimestamp() {
    return minTimestamp;
  }

  /** Appends {@code element}, which must be in this group's window alone. */
  void add(byte[] keyBytes, WindowedValue<InT> element) {
    String recordId = element.getRecordId();
    Long recordOffset = element.getRecordOffset();
    PaneInfo pane = element.getPaneInfo();
    boolean paneWritten = !PaneInfo.NO_FIRING.equals(pane);
    int flags =
        (keyBytes != null ? HAS_KEY : 0)
            | (recordId != null ? HAS_RECORD_ID : 0)
            | (recordOffset != null ? HAS_RECORD_OFFSET : 0)
            | (element.causedByDrain() == CausedByDrain.CAUSED_BY_DRAIN ? CAUSED_BY_DRAIN : 0)
            | (paneWritten ? HAS_PANE : 0);
    long timestamp = element.getTimestamp().getMillis();
    try {
      out.write(flags);
      if (keyBytes != null) {
        out.writeInt(keyBytes.length);
        out.write(keyBytes, 0, keyBytes.length);
      }
      out.writeLong(timestamp);
      if (paneWritten) {
        PaneInfo.PaneInfoCoder.INSTANCE.encode(pane, out);
      }
      if (recordId != null) {
        StringUtf8Coder.of().encode(recordId, out);
      }
      if (recordOffset != null) {
        out.writeLong(recordOffset);
      }
      valueCoder.encode(element.getValue(), out);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not encode an element held back for side inputs with its coder " + valueCoder, e);
    }
    size++;
    minTimestamp = Math.min(minTimestamp, timestamp);
  }

  /** The held elements in arrival order, decoded one at a time; the group stays as it is. */
  Iterator<HeldElements.Held<InT>> iterator() {
    int held = size;
    ChunkedInput in = new ChunkedInput(List.copyOf(chunks), out.used);
    return new Iterator<>() {
      private int read;

      @Override
      public boolean hasNext() {
        return read < held;
      }

      @Override
      public HeldElements.Held<InT> next() {
        if (read >= held) {
          throw new NoSuchElementException();
        }
        read++;
        try {
          return decode(in);
        } catch (IOException e) {
          throw new IllegalStateException(
              "Could not decode an element held back for side inputs with its coder "
                  + valueCoder
                  + ": the coder does not read back what it wrote",
              e);
        }
      }
    };
  }

  private HeldElements.Held<InT> decode(ChunkedInput in) throws IOException {
    int flags = in.readByte();
    byte[] keyBytes = null;
    if ((flags & HAS_KEY) != 0) {
      keyBytes = new byte[in.readInt()];
      in.readFully(keyBytes);
    }
    Instant timestamp = new Instant(in.readLong());
    PaneInfo pane =
        (flags & HAS_PANE) != 0 ? PaneInfo.PaneInfoCoder.INSTANCE.decode(in) : PaneInfo.NO_FIRING;
    String recordId = (flags & HAS_RECORD_ID) != 0 ? StringUtf8Coder.of().decode(in) : null;
    Long recordOffset = (flags & HAS_RECORD_OFFSET) != 0 ? in.readLong() : null;
    InT value = valueCoder.decode(in);
    CausedByDrain drain =
        (flags & CAUSED_BY_DRAIN) != 0 ? CausedByDrain.CAUSED_BY_DRAIN : CausedByDrain.NORMAL;
    WindowedValue<InT> element =
        WindowedValues.of(value, timestamp, window, pane, recordId, recordOffset, drain);
    return new HeldElements.Held<>(keyBytes, element);
  }

  /**
   * Appends to the last chunk, starting a new one (twice as large, up to {@link #MAX_CHUNK}) when
   * it is full; chunks are never copied, so a large group costs no growth copies. Coders write to
   * it directly: a {@code DataOutputStream} in between synchronizes every single-byte write.
   */
  private final class ChunkedOutput extends OutputStream {
    private byte[] current;
    private int used;

    @Override
    public void write(int b) {
      if (current == null || used == current.length) {
        nextChunk();
      }
      current[used++] = (byte) b;
    }

    void writeInt(int v) {
      if (current != null && current.length - used >= Integer.BYTES) {
        byte[] c = current;
        int p = used;
        c[p] = (byte) (v >>> 24);
        c[p + 1] = (byte) (v >>> 16);
        c[p + 2] = (byte) (v >>> 8);
        c[p + 3] = (byte) v;
        used = p + Integer.BYTES;
      } else {
        for (int shift = 24; shift >= 0; shift -= 8) {
          write(v >>> shift);
        }
      }
    }

    void writeLong(long v) {
      writeInt((int) (v >>> 32));
      writeInt((int) v);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      while (length > 0) {
        if (current == null || used == current.length) {
          nextChunk();
        }
        int n = Math.min(length, current.length - used);
        System.arraycopy(bytes, offset, current, used, n);
        used += n;
        offset += n;
        length -= n;
      }
    }

    private void nextChunk() {
      int length = current == null ? FIRST_CHUNK : Math.min(MAX_CHUNK, current.length * 2);
      current = new byte[length];
      chunks.add(current);
      used = 0;
    }
  }

  /**
   * Reads the chunks in order, the last one up to {@code lastUsed}. Unsynchronized, unlike {@code
   * ByteArrayInputStream}, and with the chunk being read and its end in fields: coders read a byte
   * at a time.
   */
  private static final class ChunkedInput extends InputStream {
    private final List<byte[]> chunks;
    private final int lastUsed;
    private int chunk = -1;
    private byte[] current = new byte[0];
    private int position;
    private int limit;

    ChunkedInput(List<byte[]> chunks, int lastUsed) {
      this.chunks = chunks;
      this.lastUsed = lastUsed;
    }

    /** Moves to the next chunk with bytes left when this one is read; false at the end. */
    private boolean hasBytes() {
      while (position == limit) {
        if (chunk + 1 >= chunks.size()) {
          return false;
        }
        chunk++;
        current = chunks.get(chunk);
        position = 0;
        limit = chunk == chunks.size() - 1 ? lastUsed : current.length;
      }
      return true;
    }

    @Override
    public int read() {
      if (position == limit && !hasBytes()) {
        return -1;
      }
      return current[position++] & 0xff;
    }

    /** The next byte; an {@link EOFException} at the end. */
    int readByte() throws IOException {
      int b = read();
      if (b < 0) {
        throw new EOFException("A held element ends early");
      }
      return b;
    }

    int readInt() throws IOException {
      if (limit - position >= Integer.BYTES) {
        byte[] c = current;
        int p = position;
        position = p + Integer.BYTES;
        return (c[p] & 0xff) << 24
            | (c[p + 1] & 0xff) << 16
            | (c[p + 2] & 0xff) << 8
            | c[p + 3] & 0xff;
      }
      int v = 0;
      for (int i = 0; i < Integer.BYTES; i++) {
        v = v << 8 | readByte();
      }
      return v;
    }

    long readLong() throws IOException {
      return (long) readInt() << 32 | (readInt() & 0xffffffffL);
    }

    void readFully(byte[] bytes) throws IOException {
      int done = 0;
      while (done < bytes.length) {
        int n = read(bytes, done, bytes.length - done);
        if (n < 0) {
          throw new EOFException("A held element ends early");
        }
        done += n;
      }
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (position == limit && !hasBytes()) {
        return -1;
      }
      int n = Math.min(length, limit - position);
      System.arraycopy(current, position, bytes, offset, n);
      position += n;
      return n;
    }
  }
}
