package io.arcon.runtime.operator;

/** Where an operator sends what it produces; output indexes are wired by the graph. */
@FunctionalInterface
public interface Output {
  void emit(int outputIndex, Object element);
}
