package io.arcon.runner.state.history;

import java.util.Arrays;
import java.util.List;

/**
 * Merges {@link RowCursor}s by row key: each step yields one row and the sources that hold it, in
 * the order the sources were given (the base first, then runs from the oldest), which is the order
 * their entries were written in.
 */
final class RowMerge {
  private final List<? extends RowCursor> sources;
  private final int[] heap;
  private int heapSize;
  private final int[] current;
  private int currentCount;

  /** The sources, each positioned at its first row. */
  RowMerge(List<? extends RowCursor> sources) {
    this.sources = sources;
    this.heap = new int[sources.size()];
    this.current = new int[sources.size()];
    for (int i = 0; i < sources.size(); i++) {
      if (sources.get(i).valid()) {
        push(i);
      }
    }
  }

  /**
   * Moves to the next row (first advancing the sources of the current one); false when there is
   * none. Afterwards {@link #sourceCount} sources, {@link #source}(0..), hold it.
   */
  boolean next() {
    for (int i = 0; i < currentCount; i++) {
      RowCursor cursor = sources.get(current[i]);
      cursor.next();
      if (cursor.valid()) {
        push(current[i]);
      }
    }
    currentCount = 0;
    if (heapSize == 0) {
      return false;
    }
    int first = pop();
    current[currentCount++] = first;
    RowCursor row = sources.get(first);
    while (heapSize > 0 && compare(heap[0], row) == 0) {
      current[currentCount++] = pop();
    }
    // Popped in key then source order, as compare breaks ties by source index.
    return true;
  }

  int sourceCount() {
    return currentCount;
  }

  /** The {@code i}-th source holding the current row, in source order. */
  RowCursor source(int i) {
    return sources.get(current[i]);
  }

  /** The index (in the given list) of the {@code i}-th source holding the current row. */
  int sourceIndex(int i) {
    return current[i];
  }

  /** The current row's key, from its first source. */
  RowCursor row() {
    return sources.get(current[0]);
  }

  private int compare(int a, RowCursor b) {
    RowCursor x = sources.get(a);
    return Arrays.compareUnsigned(
        x.keyBytes(),
        x.keyOffset(),
        x.keyOffset() + x.keyLength(),
        b.keyBytes(),
        b.keyOffset(),
        b.keyOffset() + b.keyLength());
  }

  private boolean less(int a, int b) {
    int byKey = compare(a, sources.get(b));
    return byKey < 0 || (byKey == 0 && a < b);
  }

  private void push(int source) {
    int i = heapSize++;
    heap[i] = source;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(heap[i], heap[parent])) {
        break;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void swap(int i, int j) {
    int t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  }

  private int pop() {
    int top = heap[0];
    heap[0] = heap[--heapSize];
    int i = 0;
    while (true) {
      int left = 2 * i + 1;
      if (left >= heapSize) {
        break;
      }
      int smallest = left + 1 < heapSize && less(heap[left + 1], heap[left]) ? left + 1 : left;
      if (!less(heap[smallest], heap[i])) {
        break;
      }
      swap(i, smallest);
      i = smallest;
    }
    return top;
  }
}
