package io.arcon.runner.operators;

import java.io.DataInputStream;
import java.io.DataOutputStream;
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
 * is the group's, so only what differs between elements is written, and each element comes back as
 * it went in (timestamp, pane, record id and offset, drain mode included), in its one window.
 */
final class EncodedWindowElements<InT> {
  private static final int FIRST_CHUNK = 4 << 10;
  private static final int MAX_CHUNK = 1 << 20;

  private static final int HAS_KEY = 1;
  private static final int HAS_RECORD_ID = 2;
  private static final int HAS_RECORD_OFFSET = 4;
  private static final int CAUSED_BY_DRAIN = 8;

  private final BoundedWindow window;
  private final Coder<InT> valueCoder;
  private final List<byte[]> chunks = new ArrayList<>();
  private final ChunkedOutput out = new ChunkedOutput();
  private final DataOutputStream data = new DataOutputStream(out);
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
    int flags =
        (keyBytes != null ? HAS_KEY : 0)
            | (recordId != null ? HAS_RECORD_ID : 0)
            | (recordOffset != null ? HAS_RECORD_OFFSET : 0)
            | (element.causedByDrain() == CausedByDrain.CAUSED_BY_DRAIN ? CAUSED_BY_DRAIN : 0);
    long timestamp = element.getTimestamp().getMillis();
    try {
      data.writeByte(flags);
      if (keyBytes != null) {
        data.writeInt(keyBytes.length);
        data.write(keyBytes);
      }
      data.writeLong(timestamp);
      PaneInfo.PaneInfoCoder.INSTANCE.encode(element.getPaneInfo(), data);
      if (recordId != null) {
        StringUtf8Coder.of().encode(recordId, data);
      }
      if (recordOffset != null) {
        data.writeLong(recordOffset);
      }
      valueCoder.encode(element.getValue(), data);
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
    DataInputStream in = new DataInputStream(input());
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

  private HeldElements.Held<InT> decode(DataInputStream in) throws IOException {
    int flags = in.readUnsignedByte();
    byte[] keyBytes = null;
    if ((flags & HAS_KEY) != 0) {
      keyBytes = new byte[in.readInt()];
      in.readFully(keyBytes);
    }
    Instant timestamp = new Instant(in.readLong());
    PaneInfo pane = PaneInfo.PaneInfoCoder.INSTANCE.decode(in);
    String recordId = (flags & HAS_RECORD_ID) != 0 ? StringUtf8Coder.of().decode(in) : null;
    Long recordOffset = (flags & HAS_RECORD_OFFSET) != 0 ? in.readLong() : null;
    InT value = valueCoder.decode(in);
    CausedByDrain drain =
        (flags & CAUSED_BY_DRAIN) != 0 ? CausedByDrain.CAUSED_BY_DRAIN : CausedByDrain.NORMAL;
    WindowedValue<InT> element =
        WindowedValues.of(value, timestamp, window, pane, recordId, recordOffset, drain);
    return new HeldElements.Held<>(keyBytes, element);
  }

  private InputStream input() {
    return new ChunkedInput(List.copyOf(chunks), out.used);
  }

  /**
   * Appends to the last chunk, starting a new one (twice as large, up to {@link #MAX_CHUNK}) when
   * it is full; chunks are never copied, so a large group costs no growth copies.
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
   * ByteArrayInputStream}: coders read a byte at a time.
   */
  private static final class ChunkedInput extends InputStream {
    private final List<byte[]> chunks;
    private final int lastUsed;
    private int chunk;
    private int position;

    ChunkedInput(List<byte[]> chunks, int lastUsed) {
      this.chunks = chunks;
      this.lastUsed = lastUsed;
    }

    private int limit() {
      return chunk == chunks.size() - 1 ? lastUsed : chunks.get(chunk).length;
    }

    /** Moves to the next chunk when this one is read; false at the end. */
    private boolean hasBytes() {
      while (chunk < chunks.size() && position == limit()) {
        chunk++;
        position = 0;
      }
      return chunk < chunks.size();
    }

    @Override
    public int read() {
      if (!hasBytes()) {
        return -1;
      }
      return chunks.get(chunk)[position++] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (!hasBytes()) {
        return -1;
      }
      int n = Math.min(length, limit() - position);
      System.arraycopy(chunks.get(chunk), position, bytes, offset, n);
      position += n;
      return n;
    }
  }
}
