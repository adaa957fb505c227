package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.VarInt;

/**
 * The windows of one key under a merging {@link WindowFn}, each with the window whose namespace
 * holds its values, pane state and timers (its state window): a merged window keeps them where one
 * of its parts had them, so a session that grows by an element moves nothing, only its bounds. What
 * runners-core's {@code MergingActiveWindowSet} keeps as state address windows, collapsed to one
 * per window; besides the active windows, the closed ones (trigger finished) until their garbage
 * collection, so that an element of the same window is dropped.
 */
final class MergingWindows {
  /** A merge {@link WindowFn#mergeWindows} asked for. */
  record Merge(List<BoundedWindow> toBeMerged, BoundedWindow result) {}

  // Lists searched by equality, not hash tables: a key has a few windows, and a window's hashCode
  // can cost more than comparing it with each of them (Nexmark's auction windows box three fields
  // per hash, and hash tables built anew for every element were a sixth of Q6's time). Merging
  // offers the WindowFn every active window of the key anyway.

  /** The active windows, in the order they became active. */
  private final ArrayList<BoundedWindow> activeWindows;

  /** The state window of the active window at the same index. */
  private final ArrayList<BoundedWindow> stateWindows;

  /** Closed windows, until their garbage collection; they keep no state window. */
  private final ArrayList<BoundedWindow> closed;

  private MergingWindows(
      ArrayList<BoundedWindow> activeWindows,
      ArrayList<BoundedWindow> stateWindows,
      ArrayList<BoundedWindow> closed) {
    this.activeWindows = activeWindows;
    this.stateWindows = stateWindows;
    this.closed = closed;
  }

  static MergingWindows empty() {
    return new MergingWindows(new ArrayList<>(2), new ArrayList<>(2), new ArrayList<>(0));
  }

  boolean isEmpty() {
    return activeWindows.isEmpty() && closed.isEmpty();
  }

  /** Index of a window equal to {@code window} in {@code windows}, or -1. */
  static int indexOf(List<BoundedWindow> windows, BoundedWindow window) {
    for (int i = 0, n = windows.size(); i < n; i++) {
      BoundedWindow w = windows.get(i);
      if (w == window || w.equals(window)) {
        return i;
      }
    }
    return -1;
  }

  boolean isActive(BoundedWindow window) {
    return indexOf(activeWindows, window) >= 0;
  }

  /** The state window of an active {@code window}, or null if it is not active. */
  BoundedWindow stateWindowOfActive(BoundedWindow window) {
    int i = indexOf(activeWindows, window);
    return i < 0 ? null : stateWindows.get(i);
  }

  /** Where {@code window}'s values and pane state are: its state window, or itself if new. */
  BoundedWindow stateWindowOf(BoundedWindow window) {
    int i = indexOf(activeWindows, window);
    return i < 0 ? window : stateWindows.get(i);
  }

  /**
   * Makes {@code window} active with {@code stateWindow}; an active window keeps its place in the
   * order.
   */
  void activate(BoundedWindow window, BoundedWindow stateWindow) {
    int i = indexOf(activeWindows, window);
    if (i >= 0) {
      stateWindows.set(i, stateWindow);
    } else {
      activeWindows.add(window);
      stateWindows.add(stateWindow);
    }
  }

  /** Makes {@code window} inactive; returns its state window, or null if it was not active. */
  BoundedWindow deactivate(BoundedWindow window) {
    int i = indexOf(activeWindows, window);
    if (i < 0) {
      return null;
    }
    activeWindows.remove(i);
    return stateWindows.remove(i);
  }

  boolean isClosed(BoundedWindow window) {
    return indexOf(closed, window) >= 0;
  }

  void addClosed(BoundedWindow window) {
    if (indexOf(closed, window) < 0) {
      closed.add(window);
    }
  }

  /** Forgets that {@code window} closed; returns whether it had. */
  boolean forgetClosed(BoundedWindow window) {
    int i = indexOf(closed, window);
    if (i < 0) {
      return false;
    }
    closed.remove(i);
    return true;
  }

  /** The active window whose state window is {@code stateWindow}, or null. */
  BoundedWindow windowOfStateWindow(BoundedWindow stateWindow) {
    int i = indexOf(stateWindows, stateWindow);
    return i < 0 ? null : activeWindows.get(i);
  }

  /**
   * The merges {@code windowFn} makes of the active windows and {@code newWindows} (those not
   * active yet), as runners-core offers them: every active and new window, in that order.
   */
  List<Merge> merges(WindowFn<Object, BoundedWindow> windowFn, Collection<BoundedWindow> newWindows)
      throws Exception {
    List<BoundedWindow> all = new ArrayList<>(activeWindows.size() + newWindows.size());
    all.addAll(activeWindows);
    for (BoundedWindow w : newWindows) {
      if (indexOf(activeWindows, w) < 0) {
        all.add(w);
      }
    }
    List<Merge> merges = new ArrayList<>();
    windowFn.mergeWindows(
        windowFn.new MergeContext() {
          @Override
          public Collection<BoundedWindow> windows() {
            return all;
          }

          @Override
          public void merge(Collection<BoundedWindow> toBeMerged, BoundedWindow mergeResult) {
            merges.add(new Merge(List.copyOf(toBeMerged), mergeResult));
          }
        });
    return merges;
  }

  /** The coder of the set, over the transform's window coder. */
  static final class SetCoder extends CustomCoder<MergingWindows> {
    private final Coder<BoundedWindow> windowCoder;

    SetCoder(Coder<BoundedWindow> windowCoder) {
      this.windowCoder = windowCoder;
    }

    @Override
    public void encode(MergingWindows value, OutputStream out) throws IOException {
      int n = value.activeWindows.size();
      VarInt.encode(n, out);
      for (int i = 0; i < n; i++) {
        BoundedWindow window = value.activeWindows.get(i);
        BoundedWindow stateWindow = value.stateWindows.get(i);
        windowCoder.encode(window, out);
        boolean itself = stateWindow == window || stateWindow.equals(window);
        out.write(itself ? 1 : 0);
        if (!itself) {
          windowCoder.encode(stateWindow, out);
        }
      }
      VarInt.encode(value.closed.size(), out);
      for (BoundedWindow window : value.closed) {
        windowCoder.encode(window, out);
      }
    }

    @Override
    public MergingWindows decode(InputStream in) throws IOException {
      int n = VarInt.decodeInt(in);
      ArrayList<BoundedWindow> windows = new ArrayList<>(n + 1);
      ArrayList<BoundedWindow> stateWindows = new ArrayList<>(n + 1);
      for (int i = 0; i < n; i++) {
        BoundedWindow window = windowCoder.decode(in);
        int itself = in.read();
        windows.add(window);
        stateWindows.add(itself == 1 ? window : windowCoder.decode(in));
      }
      int closedCount = VarInt.decodeInt(in);
      ArrayList<BoundedWindow> closed = new ArrayList<>(closedCount);
      for (int i = 0; i < closedCount; i++) {
        closed.add(windowCoder.decode(in));
      }
      return new MergingWindows(windows, stateWindows, closed);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      windowCoder.verifyDeterministic();
    }
  }
}
