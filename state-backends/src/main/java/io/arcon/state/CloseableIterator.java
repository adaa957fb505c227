package io.arcon.state;

import java.util.Iterator;

/** An iterator over engine resources (cursors, snapshots) that must be closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
  @Override
  void close();
}
