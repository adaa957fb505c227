package io.arcon.runner.state.history;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;

/**
 * The rows of one run read page by page, as a {@link RowCursor}: only the pages from the one
 * holding the first row asked for are read, one at a time. Closing it closes the table scan.
 */
final class PagedRun implements RowCursor, AutoCloseable {
  private final CloseableIterator<StateEntry> pages;
  private ChainRun.Cursor page;

  /** Over the page rows of one run, from the page whose last row key is &ge; {@code from}. */
  PagedRun(CloseableIterator<StateEntry> pages, byte[] from) {
    this.pages = pages;
    load(from);
  }

  private void load(byte[] from) {
    page = null;
    while (pages.hasNext()) {
      ChainRun.Cursor next = new ChainRun.Cursor(pages.next().value());
      next.seek(from);
      // A page restored at another parallelism may have lost its rows at or after from.
      if (next.valid()) {
        page = next;
        return;
      }
    }
  }

  /** The page holding the current row: its entries are read there. */
  ChainRun.Cursor page() {
    return page;
  }

  @Override
  public boolean valid() {
    return page != null;
  }

  @Override
  public byte[] keyBytes() {
    return page.keyBytes();
  }

  @Override
  public int keyOffset() {
    return page.keyOffset();
  }

  @Override
  public int keyLength() {
    return page.keyLength();
  }

  @Override
  public void next() {
    page.next();
    if (!page.valid()) {
      load(null);
    }
  }

  @Override
  public void close() {
    pages.close();
  }
}
