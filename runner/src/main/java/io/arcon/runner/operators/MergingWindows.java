package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.VarInt;

/**
 * The windows of one key under a merging {@link WindowFn}, each with the window whose namespace
 * holds its values, pane state and timers (its state window): a merged window keeps them where one
 * of its parts had them, so a session that grows by an element moves nothing, only its bounds. What
 * runners-core's {@code MergingActiveWindowSet} keeps as state address windows, collapsed to one
 * per window; besides the active windows, the closed ones (trigger finished) until their garbage
 * collection, so that an element of the same window is dropped.
 *
 * <p>The pane state of each state window ({@link WindowPaneState}) is kept here too, not in a cell
 * of the state window's namespace: every element of a merging window reads the key's windows and
 * its window's pane state, and a per-key cell was one more namespace to find among all keys'
 * windows (a hash lookup that missed the CPU caches: a fifth of a session GroupByKey's time with
 * the pane's read and write). The windows cell is written after every element anyway.
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

  /** State windows that have pane state, and that state at the same index. */
  private final ArrayList<BoundedWindow> paneWindows;

  private final ArrayList<WindowPaneState> panes;

  private MergingWindows(
      ArrayList<BoundedWindow> activeWindows,
      ArrayList<BoundedWindow> stateWindows,
      ArrayList<BoundedWindow> closed,
      ArrayList<BoundedWindow> paneWindows,
      ArrayList<WindowPaneState> panes) {
    this.activeWindows = activeWindows;
    this.stateWindows = stateWindows;
    this.closed = closed;
    this.paneWindows = paneWindows;
    this.panes = panes;
  }

  static MergingWindows empty() {
    return new MergingWindows(
        new ArrayList<>(2),
        new ArrayList<>(2),
        new ArrayList<>(0),
        new ArrayList<>(2),
        new ArrayList<>(2));
  }

  boolean isEmpty() {
    return activeWindows.isEmpty() && closed.isEmpty() && paneWindows.isEmpty();
  }

  /**
   * A copy of the pane state of {@code stateWindow}, or null if it has none: a copy, as a cell's
   * read is, so that what the caller changes stays unwritten until {@link #putPane}.
   */
  WindowPaneState pane(BoundedWindow stateWindow) {
    int i = indexOf(paneWindows, stateWindow);
    return i < 0 ? null : panes.get(i).copy();
  }

  /** Sets the pane state of {@code stateWindow} to a copy of {@code pane}. */
  void putPane(BoundedWindow stateWindow, WindowPaneState pane) {
    int i = indexOf(paneWindows, stateWindow);
    if (i >= 0) {
      panes.set(i, pane.copy());
    } else {
      paneWindows.add(stateWindow);
      panes.add(pane.copy());
    }
  }

  /** Forgets the pane state of {@code stateWindow}. */
  void clearPane(BoundedWindow stateWindow) {
    int i = indexOf(paneWindows, stateWindow);
    if (i >= 0) {
      paneWindows.remove(i);
      panes.remove(i);
    }
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
    if (windowFn.getClass() == Sessions.class
        && activeWindows.size() == 1
        && newWindows.size() == 1) {
      return sessionMerges(
          (IntervalWindow) activeWindows.get(0), (IntervalWindow) newWindows.iterator().next());
    }
    return mergesOfWindowFn(windowFn, newWindows);
  }

  /**
   * What Beam's {@link Sessions} (its {@code MergeOverlappingIntervalWindows}) asks for, given a
   * key's one session and an element's window, without running it: sort the two windows (a stable
   * sort, by start, then end) and merge them into their span if they intersect. Why: the general
   * way builds a merge context, sorts lists and makes candidates for every element, a tenth of a
   * session GroupByKey's time, for what is nearly always this one case. {@code MergingWindowsTest}
   * compares it with {@link Sessions#mergeWindows} on random windows.
   */
  static List<Merge> sessionMerges(IntervalWindow active, IntervalWindow added) {
    if (active.equals(added)) {
      return List.of(); // already active: Sessions sees one window
    }
    boolean activeFirst = active.compareTo(added) <= 0;
    IntervalWindow first = activeFirst ? active : added;
    IntervalWindow second = activeFirst ? added : active;
    if (!first.intersects(second)) {
      return List.of();
    }
    return List.of(new Merge(List.of(first, second), first.span(second)));
  }

  /** {@link #merges} through {@code windowFn}'s own {@code mergeWindows}. */
  List<Merge> mergesOfWindowFn(
      WindowFn<Object, BoundedWindow> windowFn, Collection<BoundedWindow> newWindows)
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
      // A pane's window is mostly an active window's state window: then its index, plus one.
      int panes = value.paneWindows.size();
      VarInt.encode(panes, out);
      for (int i = 0; i < panes; i++) {
        BoundedWindow paneWindow = value.paneWindows.get(i);
        int stateIndex = indexOf(value.stateWindows, paneWindow);
        VarInt.encode(stateIndex + 1, out);
        if (stateIndex < 0) {
          windowCoder.encode(paneWindow, out);
        }
        WindowPaneState.StateCoder.INSTANCE.encode(value.panes.get(i), out);
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
      int paneCount = VarInt.decodeInt(in);
      ArrayList<BoundedWindow> paneWindows = new ArrayList<>(paneCount + 1);
      ArrayList<WindowPaneState> panes = new ArrayList<>(paneCount + 1);
      for (int i = 0; i < paneCount; i++) {
        int stateIndex = VarInt.decodeInt(in) - 1;
        if (stateIndex >= stateWindows.size()) {
          throw new CoderException(
              "merging windows: pane " + i + " names state window " + stateIndex + " of " + n);
        }
        paneWindows.add(stateIndex < 0 ? windowCoder.decode(in) : stateWindows.get(stateIndex));
        panes.add(WindowPaneState.StateCoder.INSTANCE.decode(in));
      }
      return new MergingWindows(windows, stateWindows, closed, paneWindows, panes);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      windowCoder.verifyDeterministic();
    }
  }
}
