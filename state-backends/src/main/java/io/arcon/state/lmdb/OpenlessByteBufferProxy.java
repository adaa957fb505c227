package io.arcon.state.lmdb;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Comparator;
import jnr.ffi.Pointer;
import org.lmdbjava.BufferProxy;
import sun.misc.Unsafe;

/**
 * lmdbjava's buffer proxy for direct {@link ByteBuffer}s, without the JVM flags lmdbjava's own
 * proxies need.
 *
 * <p>Keys and values cross into LMDB as {@code MDB_val} structs (size, native address), so a proxy
 * must read a direct buffer's native address and point a buffer at LMDB's memory. lmdbjava's {@code
 * ByteBufferProxy} finds {@code Buffer.address} with {@code setAccessible}, which a plain {@code
 * java -cp} JVM refuses unless started with {@code --add-opens java.base/java.nio}. This proxy
 * takes the field's offset from {@code sun.misc.Unsafe} instead (module {@code jdk.unsupported},
 * open to every class-path application) and reads and writes it through that offset: the same
 * zero-copy access, no flag.
 */
final class OpenlessByteBufferProxy extends BufferProxy<ByteBuffer> {

  /** The one instance every environment of the backend uses. */
  static final OpenlessByteBufferProxy INSTANCE = new OpenlessByteBufferProxy();

  private static final Unsafe UNSAFE = unsafe();
  private static final long ADDRESS_OFFSET = fieldOffset("address");
  private static final long CAPACITY_OFFSET = fieldOffset("capacity");

  /**
   * Buffers handed to lmdbjava to be pointed at LMDB's memory by {@link #out}, kept per thread like
   * lmdbjava's own proxy: a cursor or transaction takes two per use and gives them back at close.
   */
  private static final ThreadLocal<ArrayDeque<ByteBuffer>> POOL =
      ThreadLocal.withInitial(() -> new ArrayDeque<>(16));

  private static final Comparator<ByteBuffer> SIGNED = ByteBuffer::compareTo;
  private static final Comparator<ByteBuffer> UNSIGNED = OpenlessByteBufferProxy::compareUnsigned;

  private OpenlessByteBufferProxy() {}

  @Override
  protected ByteBuffer allocate() {
    ByteBuffer pooled = POOL.get().poll();
    return pooled != null ? pooled : ByteBuffer.allocateDirect(0);
  }

  @Override
  protected void deallocate(ByteBuffer buffer) {
    buffer.order(ByteOrder.BIG_ENDIAN);
    POOL.get().offer(buffer);
  }

  @Override
  protected byte[] getBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.limit()];
    buffer.get(0, bytes, 0, bytes.length);
    return bytes;
  }

  @Override
  protected Comparator<ByteBuffer> getSignedComparator() {
    return SIGNED;
  }

  @Override
  protected Comparator<ByteBuffer> getUnsignedComparator() {
    return UNSIGNED;
  }

  @Override
  protected void in(ByteBuffer buffer, Pointer ptr, long ptrAddr) {
    in(buffer, buffer.remaining(), ptr, ptrAddr);
  }

  @Override
  protected void in(ByteBuffer buffer, int size, Pointer ptr, long ptrAddr) {
    UNSAFE.putLong(ptrAddr + STRUCT_FIELD_OFFSET_SIZE, size);
    UNSAFE.putLong(ptrAddr + STRUCT_FIELD_OFFSET_DATA, address(buffer) + buffer.position());
  }

  @Override
  protected ByteBuffer out(ByteBuffer buffer, Pointer ptr, long ptrAddr) {
    long size = UNSAFE.getLong(ptrAddr + STRUCT_FIELD_OFFSET_SIZE);
    long address = UNSAFE.getLong(ptrAddr + STRUCT_FIELD_OFFSET_DATA);
    UNSAFE.putLong(buffer, ADDRESS_OFFSET, address);
    UNSAFE.putInt(buffer, CAPACITY_OFFSET, (int) size);
    buffer.clear();
    return buffer;
  }

  private static long address(ByteBuffer buffer) {
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException(
          "lmdb reads keys and values from direct buffers only; got a heap buffer");
    }
    return UNSAFE.getLong(buffer, ADDRESS_OFFSET);
  }

  private static int compareUnsigned(ByteBuffer a, ByteBuffer b) {
    int mismatch = a.mismatch(b);
    if (mismatch < 0) {
      return 0;
    }
    if (mismatch == a.remaining() || mismatch == b.remaining()) {
      return Integer.compare(a.remaining(), b.remaining());
    }
    return Integer.compare(
        Byte.toUnsignedInt(a.get(a.position() + mismatch)),
        Byte.toUnsignedInt(b.get(b.position() + mismatch)));
  }

  private static long fieldOffset(String name) {
    try {
      Field field = Buffer.class.getDeclaredField(name);
      return UNSAFE.objectFieldOffset(field);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(
          "This JVM's java.nio.Buffer has no field '"
              + name
              + "', which the lmdb state backend reads; use a Java 17+ JDK from a mainstream"
              + " vendor or choose --stateBackend=rocksdb or heap",
          e);
    }
  }

  private static Unsafe unsafe() {
    try {
      Field field = Unsafe.class.getDeclaredField("theUnsafe");
      field.setAccessible(true);
      return (Unsafe) field.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "The lmdb state backend needs sun.misc.Unsafe (module jdk.unsupported) and cannot reach"
              + " it: "
              + e
              + "; choose --stateBackend=rocksdb or heap",
          e);
    }
  }
}
