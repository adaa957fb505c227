package io.arcon.runner.operators;

import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.state.WindowHash;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.ReadyCheckingSideInputReader;
import org.apache.beam.runners.core.SideInputHandler;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * Side inputs of one ParDo instance. A side-input window is ready when a pane for it arrived, or
 * when the side input's watermark passed the window's end — then it is read as empty, because no
 * data for it can come any more.
 */
final class SideInputReadiness implements ReadyCheckingSideInputReader {
  private final SideInputHandler handler;
  private final Map<PCollectionView<?>, Long> watermarks = new HashMap<>();
  private final List<PCollectionView<?>> views;

  /**
   * The newest pane of every (view, window), as the handler keeps only that: what an epoch snapshot
   * holds, since upstream never sends those panes again after a restore.
   */
  private final Map<PCollectionView<?>, Map<BoundedWindow, WindowedValue<Iterable<?>>>> panes =
      new HashMap<>();

  /**
   * Each (view, window)'s value as read last, until a new pane for it arrives. runners-core's
   * handler materializes the view anew for every read, and answers whether a window is ready by
   * merging the set of every window that ever had a pane: for a main input joined against a
   * windowed side input (Nexmark Q7) those two were a third of the job's time.
   */
  private final Map<PCollectionView<?>, Map<BoundedWindow, Object>> values = new HashMap<>();

  /** The last value read, with its view and window: consecutive elements mostly share both. */
  private PCollectionView<?> lastView;

  private BoundedWindow lastWindow;
  private Object lastValue;

  SideInputReadiness(SideInputHandler handler, List<PCollectionView<?>> views) {
    this.handler = handler;
    this.views = List.copyOf(views);
    for (PCollectionView<?> v : views) {
      watermarks.put(v, Long.MIN_VALUE);
      panes.put(v, new LinkedHashMap<>());
    }
  }

  void add(PCollectionView<?> view, WindowedValue<Iterable<?>> pane) {
    handler.addSideInputValue(view, pane);
    Map<BoundedWindow, WindowedValue<Iterable<?>>> byWindow = panes.get(view);
    for (BoundedWindow window : pane.getWindows()) {
      byWindow.put(
          window,
          WindowedValues.of(pane.getValue(), pane.getTimestamp(), window, pane.getPaneInfo()));
    }
    Map<BoundedWindow, Object> read = values.get(view);
    if (read != null) {
      for (BoundedWindow window : pane.getWindows()) {
        read.remove(window);
      }
    }
    if (lastView == view) {
      lastView = null;
      lastWindow = null;
      lastValue = null;
    }
  }

  /** Writes every view's panes and watermark, in the order of the ParDo's side inputs. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  void writeTo(SnapshotWriter out) throws IOException {
    out.writeInt(views.size());
    for (PCollectionView<?> view : views) {
      Coder coder = paneCoder(view);
      Map<BoundedWindow, WindowedValue<Iterable<?>>> byWindow = panes.get(view);
      out.writeInt(byWindow.size());
      for (WindowedValue<Iterable<?>> pane : byWindow.values()) {
        out.writeEncoded(coder, pane);
      }
      out.writeLong(watermarks.get(view));
    }
  }

  /**
   * Restores what {@link #writeTo} wrote; with {@code keep} false only reads past it (every
   * instance holds the same side inputs, so a restore after a parallelism change keeps one copy).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  void readFrom(SnapshotReader in, boolean keep) throws IOException {
    int count = in.readInt("side input count");
    if (count != views.size()) {
      throw in.corrupt(
          "it holds " + count + " side inputs but the step reads " + views.size(), null);
    }
    for (PCollectionView<?> view : views) {
      Coder coder = paneCoder(view);
      int paneCount = in.readCount("side input panes", 1);
      for (int i = 0; i < paneCount; i++) {
        WindowedValue<Iterable<?>> pane =
            (WindowedValue<Iterable<?>>) in.readEncoded(coder, "side input pane");
        if (keep) {
          add(view, pane);
        }
      }
      long watermark = in.readLong("side input watermark");
      if (keep) {
        advanceWatermark(view, watermark);
      }
    }
  }

  private static Coder<?> paneCoder(PCollectionView<?> view) {
    return WindowedValues.getFullCoder(
        IterableCoder.of(view.getCoderInternal()),
        view.getWindowingStrategyInternal().getWindowFn().windowCoder());
  }

  void advanceWatermark(PCollectionView<?> view, long watermark) {
    watermarks.merge(view, watermark, Math::max);
  }

  private boolean watermarkPassed(PCollectionView<?> view, BoundedWindow window) {
    long wm = watermarks.getOrDefault(view, Long.MIN_VALUE);
    return wm == Long.MAX_VALUE || wm > window.maxTimestamp().getMillis();
  }

  /** Ready: a pane for the window arrived (the handler holds it), or the watermark passed it. */
  @Override
  public boolean isReady(PCollectionView<?> view, BoundedWindow window) {
    Map<BoundedWindow, WindowedValue<Iterable<?>>> byWindow = panes.get(view);
    return (byWindow != null && byWindow.containsKey(window)) || watermarkPassed(view, window);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T get(PCollectionView<T> view, BoundedWindow window) {
    if (lastView == view && WindowHash.same(lastWindow, window)) {
      return (T) lastValue;
    }
    Map<BoundedWindow, Object> read = values.computeIfAbsent(view, v -> new HashMap<>());
    Object value = read.get(window);
    if (value == null && !read.containsKey(window)) {
      value = materialize(view, window);
      read.put(window, value);
    }
    lastView = view;
    lastWindow = window;
    lastValue = value;
    return (T) value;
  }

  private <T> T materialize(PCollectionView<T> view, BoundedWindow window) {
    if (!handler.isReady(view, window)) {
      if (!watermarkPassed(view, window)) {
        throw new IllegalStateException("Side input " + view + " is not ready for " + window);
      }
      handler.addSideInputValue(
          view, WindowedValues.of(List.of(), window.maxTimestamp(), window, PaneInfo.NO_FIRING));
    }
    return handler.get(view, window);
  }

  @Override
  public <T> boolean contains(PCollectionView<T> view) {
    // Asked on every side-input read: the handler's answer compares views by their tags' strings.
    for (PCollectionView<?> v : views) {
      if (v == view) {
        return true;
      }
    }
    return handler.contains(view);
  }

  @Override
  public boolean isEmpty() {
    return handler.isEmpty();
  }
}
