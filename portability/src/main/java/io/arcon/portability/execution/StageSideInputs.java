package io.arcon.portability.execution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.model.fnexecution.v1.BeamFnApi;
import org.apache.beam.runners.fnexecution.control.ProcessBundleDescriptors;
import org.apache.beam.runners.fnexecution.state.StateRequestHandler;
import org.apache.beam.runners.fnexecution.state.StateRequestHandlers;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.WindowMappingFn;
import org.apache.beam.sdk.util.ByteStringOutputStream;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * The side inputs of one executable stage instance: every element of each side-input PCollection
 * (broadcast to every instance) kept by window, served to the SDK harness through Beam's side-input
 * state requests, and the readiness test that holds back main-input elements.
 *
 * <p>A side input is ready for a main-input window once the side input's watermark passed the end
 * of the side-input window it maps to: its content for that window is then complete. A side input
 * whose windowing has a trigger of its own arrives instead as panes: the translator groups it on
 * the runner side with that windowing strategy (as Beam's classic runners materialize a view), each
 * pane is the whole content of its window and replaces the one before, and the window is ready with
 * its first pane. The SDK maps windows itself when it asks for a side input; the runner maps them
 * only to decide readiness, with the side input's default window mapping.
 */
final class StageSideInputs implements StateRequestHandlers.SideInputHandlerFactory {

  /** One side input: its (transform, local name), window mapping, values and watermark. */
  static final class Port {
    final String transformId;
    final String localName;
    final WindowMappingFn<?> mapping;

    /**
     * Whether elements arrive as panes ({@code KV<Void, Iterable<V>>} from the runner-side grouping
     * of a triggered side input) rather than one by one.
     */
    final boolean panes;

    final Map<BoundedWindow, List<Object>> values = new HashMap<>();

    /**
     * What a checkpoint keeps: every element as it arrived (one window each), or for panes the
     * newest pane of each window.
     */
    final Map<BoundedWindow, List<WindowedValue<?>>> elements = new LinkedHashMap<>();

    long watermark = Long.MIN_VALUE;

    Port(String transformId, String localName, WindowMappingFn<?> mapping, boolean panes) {
      this.transformId = transformId;
      this.localName = localName;
      this.mapping = mapping;
      this.panes = panes;
    }

    BoundedWindow sideWindow(BoundedWindow mainWindow) {
      return mapping.getSideInputWindow(mainWindow);
    }
  }

  private final List<Port> ports;

  StageSideInputs(List<Port> ports) {
    this.ports = ports;
  }

  boolean isEmpty() {
    return ports.isEmpty();
  }

  /**
   * Adds an element of side input {@code index} (0-based), in each of its windows; a pane replaces
   * its window's content.
   */
  synchronized void add(int index, WindowedValue<?> element) {
    Port port = ports.get(index);
    for (WindowedValue<?> single : element.explodeWindows()) {
      BoundedWindow window = single.getWindows().iterator().next();
      if (port.panes) {
        List<Object> content = new ArrayList<>();
        ((KV<?, Iterable<?>>) single.getValue()).getValue().forEach(content::add);
        port.values.put(window, content);
        port.elements.put(window, List.of(single));
      } else {
        port.elements.computeIfAbsent(window, x -> new ArrayList<>()).add(single);
        port.values.computeIfAbsent(window, x -> new ArrayList<>()).add(single.getValue());
      }
    }
  }

  int size() {
    return ports.size();
  }

  synchronized List<WindowedValue<?>> elementsOf(int index) {
    List<WindowedValue<?>> all = new ArrayList<>();
    ports.get(index).elements.values().forEach(all::addAll);
    return all;
  }

  synchronized long watermarkOf(int index) {
    return ports.get(index).watermark;
  }

  synchronized void advanceWatermark(int index, long watermark) {
    Port port = ports.get(index);
    port.watermark = Math.max(port.watermark, watermark);
  }

  /** Whether every side input is ready for main-input window {@code mainWindow}. */
  synchronized boolean isReady(BoundedWindow mainWindow) {
    for (Port port : ports) {
      BoundedWindow side = port.sideWindow(mainWindow);
      if (port.panes && port.values.containsKey(side)) {
        continue;
      }
      if (port.watermark <= side.maxTimestamp().getMillis() && port.watermark != Long.MAX_VALUE) {
        return false;
      }
    }
    return true;
  }

  private synchronized List<Object> valuesOf(String transformId, String localName, Object window) {
    for (Port port : ports) {
      if (port.transformId.equals(transformId) && port.localName.equals(localName)) {
        return List.copyOf(port.values.getOrDefault(window, List.of()));
      }
    }
    throw new IllegalStateException(
        "The SDK harness asked for side input "
            + localName
            + " of "
            + transformId
            + ", which this stage does not read");
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V, W extends BoundedWindow>
      StateRequestHandlers.IterableSideInputHandler<V, W> forIterableSideInput(
          String transformId, String sideInputId, Coder<V> elementCoder, Coder<W> windowCoder) {
    return new StateRequestHandlers.IterableSideInputHandler<>() {
      @Override
      public Iterable<V> get(W window) {
        return (Iterable<V>) valuesOf(transformId, sideInputId, window);
      }

      @Override
      public Coder<V> elementCoder() {
        return elementCoder;
      }
    };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, V, W extends BoundedWindow>
      StateRequestHandlers.MultimapSideInputHandler<K, V, W> forMultimapSideInput(
          String transformId, String sideInputId, KvCoder<K, V> kvCoder, Coder<W> windowCoder) {
    Coder<K> keyCoder = kvCoder.getKeyCoder();
    return new StateRequestHandlers.MultimapSideInputHandler<>() {
      /** Values by encoded key, in arrival order; built per request as side inputs may grow. */
      private Map<KeyBytes, KV<K, List<V>>> byKey(W window) {
        Map<KeyBytes, KV<K, List<V>>> grouped = new LinkedHashMap<>();
        for (Object o : valuesOf(transformId, sideInputId, window)) {
          KV<K, V> kv = (KV<K, V>) o;
          KeyBytes key = new KeyBytes(encode(keyCoder, kv.getKey()));
          grouped
              .computeIfAbsent(key, k -> KV.of(kv.getKey(), new ArrayList<>()))
              .getValue()
              .add(kv.getValue());
        }
        return grouped;
      }

      @Override
      public Iterable<K> get(W window) {
        return byKey(window).values().stream().map(KV::getKey).toList();
      }

      @Override
      public Iterable<V> get(K key, W window) {
        KV<K, List<V>> values = byKey(window).get(new KeyBytes(encode(keyCoder, key)));
        return values == null ? List.of() : values.getValue();
      }

      @Override
      public Coder<K> keyCoder() {
        return keyCoder;
      }

      @Override
      public Coder<V> valueCoder() {
        return kvCoder.getValueCoder();
      }
    };
  }

  /**
   * Serves multimap side inputs read whole (keys with all their values, e.g. a map side input's
   * entry set), which Beam's side-input handler factory does not cover: each key once, with its
   * values, encoded as {@code KV<K, Iterable<V>>} one after another.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  StateRequestHandler keysValuesHandler(
      Map<String, Map<String, ProcessBundleDescriptors.SideInputSpec>> specs) {
    return request -> {
      BeamFnApi.StateKey.MultimapKeysValuesSideInput key =
          request.getStateKey().getMultimapKeysValuesSideInput();
      if (request.getRequestCase() != BeamFnApi.StateRequest.RequestCase.GET) {
        throw new UnsupportedOperationException(
            "Side inputs are read-only; got " + request.getRequestCase());
      }
      ProcessBundleDescriptors.SideInputSpec spec =
          specs.getOrDefault(key.getTransformId(), Map.of()).get(key.getSideInputId());
      if (spec == null || !(spec.elementCoder() instanceof KvCoder<?, ?> kv)) {
        throw new IllegalStateException(
            "No multimap side input " + key.getSideInputId() + " of " + key.getTransformId());
      }
      Object window = spec.windowCoder().decode(key.getWindow().newInput());
      KvCoder<Object, Object> kvCoder = (KvCoder<Object, Object>) kv;
      Map<KeyBytes, KV<Object, List<Object>>> grouped = new LinkedHashMap<>();
      for (Object o : valuesOf(key.getTransformId(), key.getSideInputId(), window)) {
        KV<Object, Object> e = (KV<Object, Object>) o;
        grouped
            .computeIfAbsent(
                new KeyBytes(encode(kvCoder.getKeyCoder(), e.getKey())),
                k -> KV.of(e.getKey(), new ArrayList<>()))
            .getValue()
            .add(e.getValue());
      }
      Coder<KV<Object, Iterable<Object>>> entryCoder =
          KvCoder.of(kvCoder.getKeyCoder(), IterableCoder.of(kvCoder.getValueCoder()));
      ByteStringOutputStream out = new ByteStringOutputStream();
      for (KV<Object, List<Object>> entry : grouped.values()) {
        entryCoder.encode(KV.of(entry.getKey(), entry.getValue()), out);
      }
      return CompletableFuture.completedFuture(
          BeamFnApi.StateResponse.newBuilder()
              .setGet(BeamFnApi.StateGetResponse.newBuilder().setData(out.toByteString())));
    };
  }

  private static <T> byte[] encode(Coder<T> coder, T value) {
    try {
      return CoderUtils.encodeToByteArray(coder, value);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot encode side-input key " + value, e);
    }
  }

  /** Encoded key bytes with value equality. */
  private record KeyBytes(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof KeyBytes k && java.util.Arrays.equals(bytes, k.bytes);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(bytes);
    }
  }
}
