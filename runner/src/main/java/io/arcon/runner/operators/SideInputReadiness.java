package io.arcon.runner.operators;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.ReadyCheckingSideInputReader;
import org.apache.beam.runners.core.SideInputHandler;
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

  SideInputReadiness(SideInputHandler handler, List<PCollectionView<?>> views) {
    this.handler = handler;
    for (PCollectionView<?> v : views) {
      watermarks.put(v, Long.MIN_VALUE);
    }
  }

  void add(PCollectionView<?> view, WindowedValue<Iterable<?>> pane) {
    handler.addSideInputValue(view, pane);
  }

  void advanceWatermark(PCollectionView<?> view, long watermark) {
    watermarks.merge(view, watermark, Math::max);
  }

  private boolean watermarkPassed(PCollectionView<?> view, BoundedWindow window) {
    long wm = watermarks.getOrDefault(view, Long.MIN_VALUE);
    return wm == Long.MAX_VALUE || wm > window.maxTimestamp().getMillis();
  }

  @Override
  public boolean isReady(PCollectionView<?> view, BoundedWindow window) {
    return handler.isReady(view, window) || watermarkPassed(view, window);
  }

  @Override
  public <T> T get(PCollectionView<T> view, BoundedWindow window) {
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
    return handler.contains(view);
  }

  @Override
  public boolean isEmpty() {
    return handler.isEmpty();
  }
}
