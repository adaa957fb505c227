package io.arcon.state.lmdb;

import io.arcon.state.CloseableIterator;
import io.arcon.state.ListFraming;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.lmdbjava.Dbi;

/**
 * An lmdb table: one named LMDB database. All transaction handling lives in the backend; the Dbi
 * handle is re-bound when the backend restores and reopens its environment.
 */
final class LmdbStateTable implements StateTable {
  private final LmdbStateBackend owner;
  private final String name;
  private Dbi<ByteBuffer> dbi;

  LmdbStateTable(LmdbStateBackend owner, String name, Dbi<ByteBuffer> dbi) {
    this.owner = owner;
    this.name = name;
    this.dbi = dbi;
  }

  Dbi<ByteBuffer> dbi() {
    return dbi;
  }

  void rebind(Dbi<ByteBuffer> dbi) {
    this.dbi = dbi;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    return owner.get(this, key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    owner.write(LmdbWrite.put(this, owner.checkKey(this, key), value));
  }

  @Override
  public void delete(byte[] key) {
    owner.write(LmdbWrite.delete(this, owner.checkKey(this, key)));
  }

  @Override
  public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    Objects.requireNonNull(fromInclusive, "fromInclusive");
    Objects.requireNonNull(toExclusive, "toExclusive");
    owner.write(LmdbWrite.deleteRange(this, fromInclusive, toExclusive));
  }

  @Override
  public void append(byte[] key, byte[] element) {
    Objects.requireNonNull(element, "element");
    owner.write(LmdbWrite.append(this, owner.checkKey(this, key), element));
  }

  /** One rewrite of the list for all of {@code elements}, not one per element. */
  @Override
  public void appendAll(byte[] key, List<byte[]> elements) {
    if (elements.isEmpty()) {
      return;
    }
    owner.write(
        LmdbWrite.appendFramed(this, owner.checkKey(this, key), ListFraming.frameAll(elements)));
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    return ListFraming.decode(get(key));
  }

  @Override
  public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
    return new LmdbScan(owner, this, fromInclusive, toExclusive);
  }

  @Override
  public long approximateSizeBytes() {
    return owner.tableSizeBytes(this);
  }
}
