package io.arcon.runtime.operator;

/**
 * A chain head that produces data instead of receiving it. The node calls {@link #poll} whenever it
 * has credit to send; between polls it processes other messages, so a source never monopolises its
 * thread.
 */
public interface SourceOperator extends Operator {

  /** What a poll achieved. */
  enum PollResult {
    /** Emitted data (or may have more right away): poll again soon. */
    MORE,
    /** Nothing available now: poll again after a short pause. */
    IDLE,
    /** The source is exhausted; its watermark is final. */
    DONE
  }

  /** Emits at most {@code maxElements} elements. */
  PollResult poll(int maxElements) throws Exception;

  /** The source's current output watermark. */
  long currentWatermark();

  @Override
  default void processElement(int port, Object element) {
    throw new IllegalStateException("A source has no inputs");
  }
}
