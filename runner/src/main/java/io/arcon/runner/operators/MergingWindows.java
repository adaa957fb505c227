package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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

  /** Active window → its state window, in the order they became active. */
  final LinkedHashMap<BoundedWindow, BoundedWindow> active;

  /** Closed windows, until their garbage collection; they keep no state window. */
  final LinkedHashSet<BoundedWindow> closed;

  MergingWindows(
      LinkedHashMap<BoundedWindow, BoundedWindow> active, LinkedHashSet<BoundedWindow> closed) {
    this.active = active;
    this.closed = closed;
  }

  static MergingWindows empty() {
    return new MergingWindows(new LinkedHashMap<>(), new LinkedHashSet<>());
  }

  boolean isEmpty() {
    return active.isEmpty() && closed.isEmpty();
  }

  /** Where {@code window}'s values and pane state are: its state window, or itself if new. */
  BoundedWindow stateWindowOf(BoundedWindow window) {
    return active.getOrDefault(window, window);
  }

  /** The active window whose state window is {@code stateWindow}, or null. */
  BoundedWindow windowOfStateWindow(BoundedWindow stateWindow) {
    for (Map.Entry<BoundedWindow, BoundedWindow> e : active.entrySet()) {
      if (e.getValue().equals(stateWindow)) {
        return e.getKey();
      }
    }
    return null;
  }

  /**
   * The merges {@code windowFn} makes of the active windows and {@code newWindows} (those not
   * active yet), as runners-core offers them: every active and new window, in that order.
   */
  List<Merge> merges(WindowFn<Object, BoundedWindow> windowFn, Collection<BoundedWindow> newWindows)
      throws Exception {
    List<BoundedWindow> all = new ArrayList<>(active.keySet());
    for (BoundedWindow w : newWindows) {
      if (!active.containsKey(w)) {
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
      encode(value.active, out);
      VarInt.encode(value.closed.size(), out);
      for (BoundedWindow window : value.closed) {
        windowCoder.encode(window, out);
      }
    }

    private void encode(Map<BoundedWindow, BoundedWindow> windows, OutputStream out)
        throws IOException {
      VarInt.encode(windows.size(), out);
      for (Map.Entry<BoundedWindow, BoundedWindow> e : windows.entrySet()) {
        windowCoder.encode(e.getKey(), out);
        boolean itself = e.getValue().equals(e.getKey());
        out.write(itself ? 1 : 0);
        if (!itself) {
          windowCoder.encode(e.getValue(), out);
        }
      }
    }

    @Override
    public MergingWindows decode(InputStream in) throws IOException {
      LinkedHashMap<BoundedWindow, BoundedWindow> active = decodeWindows(in);
      int n = VarInt.decodeInt(in);
      LinkedHashSet<BoundedWindow> closed = new LinkedHashSet<>();
      for (int i = 0; i < n; i++) {
        closed.add(windowCoder.decode(in));
      }
      return new MergingWindows(active, closed);
    }

    private LinkedHashMap<BoundedWindow, BoundedWindow> decodeWindows(InputStream in)
        throws IOException {
      int n = VarInt.decodeInt(in);
      LinkedHashMap<BoundedWindow, BoundedWindow> windows = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        BoundedWindow window = windowCoder.decode(in);
        int itself = in.read();
        windows.put(window, itself == 1 ? window : windowCoder.decode(in));
      }
      return windows;
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      windowCoder.verifyDeterministic();
    }
  }
}
