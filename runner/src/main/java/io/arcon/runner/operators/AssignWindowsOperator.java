package io.arcon.runner.operators;

import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import java.util.Collection;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;

/** Window.Assign: re-windows each element with the new {@link WindowFn}. */
public final class AssignWindowsOperator<T, W extends BoundedWindow> implements Operator {
  private final WindowFn<T, W> windowFn;
  private Output output;

  public AssignWindowsOperator(WindowFn<T, W> windowFn) {
    this.windowFn = windowFn;
  }

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  @SuppressWarnings("unchecked")
  public void processElement(int port, Object element) throws Exception {
    WindowedValue<T> value = (WindowedValue<T>) element;
    for (BoundedWindow window : value.getWindows()) {
      Collection<W> windows =
          windowFn.assignWindows(
              windowFn.new AssignContext() {
                @Override
                public T element() {
                  return value.getValue();
                }

                @Override
                public Instant timestamp() {
                  return value.getTimestamp();
                }

                @Override
                public BoundedWindow window() {
                  return window;
                }
              });
      output.emit(
          0,
          WindowedValues.of(value.getValue(), value.getTimestamp(), windows, value.getPaneInfo()));
    }
  }
}
