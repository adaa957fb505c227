package io.arcon.runner.operators;

import io.arcon.runtime.graph.KeyedElement;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import java.util.List;
import org.apache.beam.runners.core.KeyedWorkItem;
import org.apache.beam.runners.core.KeyedWorkItems;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;

/**
 * GBKIntoKeyedWorkItems after the keyed shuffle: wraps each {@code KV<key, value>} into a
 * single-element {@link KeyedWorkItem} and emits it keyed by the bytes its input arrived with, so
 * the runtime sets the same key on the keyed operator fused behind it.
 */
public final class ToKeyedWorkItemOperator implements Operator {
  private Output output;
  private byte[] currentKeyBytes;

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  public void setCurrentKey(byte[] keyBytes) {
    this.currentKeyBytes = keyBytes;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void processElement(int port, Object element) {
    WindowedValue<KV<Object, Object>> value = (WindowedValue<KV<Object, Object>>) element;
    KeyedWorkItem<Object, Object> item =
        KeyedWorkItems.elementsWorkItem(
            value.getValue().getKey(), List.of(value.withValue(value.getValue().getValue())));
    output.emit(
        0,
        new KeyedElement(
            currentKeyBytes,
            // Runners-core expects work items in the global window; the element inside keeps its
            // own.
            WindowedValues.timestampedValueInGlobalWindow(item, value.getTimestamp())));
  }
}
