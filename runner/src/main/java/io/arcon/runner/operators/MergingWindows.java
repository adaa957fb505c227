package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.VarInt;

/**
 * The active windows of one key under a merging {@link WindowFn}, each with the window whose
 * namespace holds its values (its state window): a merged window keeps the values where one of its
 * parts had them, so a session that grows by an element moves nothing, only its bounds. What
 * runners-core's {@code MergingActiveWindowSet} keeps as state address windows, collapsed to one
 * per window.
 */
final class MergingWindows {
  /** A merge {@link WindowFn#mergeWindows} asked for. */
  record Merge(List<BoundedWindow> toBeMerged, BoundedWindow result) {}

  /** Active window → its state window, in the order they became active. */
  final LinkedHashMap<BoundedWindow, BoundedWindow> active;

  MergingWindows(LinkedHashMap<BoundedWindow, BoundedWindow> active) {
    this.active = active;
  }

  static MergingWindows empty() {
    return new MergingWindows(new LinkedHashMap<>());
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
      VarInt.encode(value.active.size(), out);
      for (Map.Entry<BoundedWindow, BoundedWindow> e : value.active.entrySet()) {
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
      int n = VarInt.decodeInt(in);
      LinkedHashMap<BoundedWindow, BoundedWindow> active = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        BoundedWindow window = windowCoder.decode(in);
        int itself = in.read();
        active.put(window, itself == 1 ? window : windowCoder.decode(in));
      }
      return new MergingWindows(active);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      windowCoder.verifyDeterministic();
    }
  }
}
