package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.state.WindowHash;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * The main input of a ParDo with side inputs: each element is processed at once in every window
 * whose side inputs are ready, and held back, window by window, until they are ready
 * (runners-core's pushback, with the held elements grouped by main-input window).
 *
 * <p>Grouping is what keeps a held-back stream cheap. A windowed side input makes the main input of
 * a whole window wait for it (Nexmark Q7: every bid of a 10 s window waits for the window's highest
 * bid), and the side input's watermark moves many times in the meantime. Retrying every held
 * element on every move cost a readiness check per element each time; the readiness of a window is
 * now checked once per retry, and a window's elements are retried only once it is ready. Between
 * retries a window that holds elements is known not to be ready (readiness changes only with a new
 * pane or side-input watermark, and each of those retries), so a new element of that window joins
 * its group without a check.
 *
 * <p>Elements keep their arrival order within a window; windows are retried in the order they were
 * first held. They are held encoded with the main input's coder ({@link EncodedWindowElements}), so
 * that what waits costs the collector a few large arrays instead of every element's objects. A
 * snapshot holds the elements in the format of {@link HeldElements}.
 */
final class PushedBackInput<InT> {
  /** What processes an element in one window whose side inputs are ready. */
  interface Processor<InT> {
    void process(byte[] keyBytes, WindowedValue<InT> element);
  }

  private final SideInputReadiness sideInputs;
  private final List<PCollectionView<?>> views;
  private final Coder<InT> valueCoder;
  private final Map<BoundedWindow, EncodedWindowElements<InT>> byWindow = new LinkedHashMap<>();

  /**
   * The window an element was last held in, and its group: the next element is usually of the same
   * window (input in event-time order), found by one {@code equals} instead of two hash lookups (a
   * user window's hash can be dear). Null when unknown.
   */
  private BoundedWindow lastWindow;

  private EncodedWindowElements<InT> lastGroup;

  /**
   * The window last found ready, or null. Readiness never goes back (side inputs only gain panes
   * and watermark), and consecutive elements mostly share a window, so the next element of that
   * window is processed without mapping it to its side-input windows and looking those up again.
   */
  private BoundedWindow lastReadyWindow;

  private int size;
  private long hold = Long.MAX_VALUE;

  /**
   * @param valueCoder the coder of the main input's values, which the held elements are kept in
   */
  PushedBackInput(
      SideInputReadiness sideInputs, List<PCollectionView<?>> views, Coder<InT> valueCoder) {
    this.sideInputs = sideInputs;
    this.views = List.copyOf(views);
    this.valueCoder = valueCoder;
  }

  /**
   * Processes {@code element} with {@code processor} in each of its windows whose side inputs are
   * ready (one window at a time, as a DoFn with side inputs must see it) and holds it in the
   * others.
   */
  void offer(byte[] keyBytes, WindowedValue<InT> element, Processor<InT> processor) {
    if (element.getWindows().size() == 1) {
      offerInWindow(keyBytes, element, element.getWindows().iterator().next(), processor);
      return;
    }
    for (WindowedValue<InT> inOneWindow : element.explodeWindows()) {
      offerInWindow(keyBytes, inOneWindow, inOneWindow.getWindows().iterator().next(), processor);
    }
  }

  private void offerInWindow(
      byte[] keyBytes, WindowedValue<InT> element, BoundedWindow window, Processor<InT> processor) {
    if (WindowHash.same(lastReadyWindow, window)) {
      processor.process(keyBytes, element);
      return;
    }
    EncodedWindowElements<InT> group = heldGroup(window);
    if (group == null) {
      if (isReady(window)) {
        lastReadyWindow = window;
        processor.process(keyBytes, element);
        return;
      }
      group = newGroup(window);
    }
    hold(group, keyBytes, element);
  }

  /** The group of elements held in {@code window}, or null when it holds none. */
  private EncodedWindowElements<InT> heldGroup(BoundedWindow window) {
    if (WindowHash.same(lastWindow, window)) {
      return lastGroup;
    }
    EncodedWindowElements<InT> group = byWindow.get(window);
    if (group != null) {
      lastWindow = window;
      lastGroup = group;
    }
    return group;
  }

  private EncodedWindowElements<InT> newGroup(BoundedWindow window) {
    EncodedWindowElements<InT> group = new EncodedWindowElements<>(window, valueCoder);
    byWindow.put(window, group);
    lastWindow = window;
    lastGroup = group;
    return group;
  }

  /** Holds {@code element} behind the other elements held in its window's {@code group}. */
  private void hold(EncodedWindowElements<InT> group, byte[] keyBytes, WindowedValue<InT> element) {
    group.add(keyBytes, element);
    size++;
    hold = Math.min(hold, element.getTimestamp().getMillis());
  }

  /** Whether every side input is ready for the main-input {@code window}. */
  private boolean isReady(BoundedWindow window) {
    for (PCollectionView<?> view : views) {
      BoundedWindow sideWindow = view.getWindowMappingFn().getSideInputWindow(window);
      if (!sideInputs.isReady(view, sideWindow)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Takes out the held elements of every window whose side inputs are ready now and hands each to
   * {@code processor} (in exactly one window), by window in the order they were first held, each
   * window's in arrival order, decoding one at a time. Call it whenever a side input got a pane or
   * a watermark. The windows are taken out before the first element is processed.
   */
  void takeReady(Processor<InT> processor) {
    if (size == 0) {
      return;
    }
    List<EncodedWindowElements<InT>> ready = new ArrayList<>();
    long remainingHold = Long.MAX_VALUE;
    lastWindow = null; // its group may go now
    lastGroup = null;
    for (Iterator<Map.Entry<BoundedWindow, EncodedWindowElements<InT>>> it =
            byWindow.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<BoundedWindow, EncodedWindowElements<InT>> entry = it.next();
      EncodedWindowElements<InT> group = entry.getValue();
      if (isReady(entry.getKey())) {
        ready.add(group);
        size -= group.size();
        it.remove();
      } else {
        remainingHold = Math.min(remainingHold, group.minTimestamp());
      }
    }
    hold = remainingHold;
    for (EncodedWindowElements<InT> group : ready) {
      for (Iterator<HeldElements.Held<InT>> it = group.iterator(); it.hasNext(); ) {
        HeldElements.Held<InT> held = it.next();
        processor.process(held.keyBytes(), held.value());
      }
    }
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** The smallest timestamp held, or {@code Long.MAX_VALUE}: it holds the ParDo's watermark. */
  long hold() {
    return hold;
  }

  void writeTo(SnapshotWriter out, Coder<WindowedValue<InT>> coder) throws IOException {
    List<HeldElements.Held<InT>> all = new ArrayList<>(size);
    for (EncodedWindowElements<InT> group : byWindow.values()) {
      group.iterator().forEachRemaining(all::add);
    }
    HeldElements.write(out, coder, all);
  }

  /** Holds again elements a snapshot held (as {@link HeldElements#readFrom} selects them). */
  void restore(List<HeldElements.Held<InT>> held) {
    for (HeldElements.Held<InT> h : held) {
      for (WindowedValue<InT> inOneWindow : h.value().explodeWindows()) {
        BoundedWindow window = inOneWindow.getWindows().iterator().next();
        EncodedWindowElements<InT> group = heldGroup(window);
        hold(group != null ? group : newGroup(window), h.keyBytes(), inOneWindow);
      }
    }
  }
}
