package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.VarInt;

/**
 * Everything {@link WatermarkTriggerGroupByKeyOperator} keeps about one window of one key besides
 * its buffered values, in one state cell: what runners-core spreads over the trigger's finished
 * bits, its sub-trigger's count or delay, the pane tracker and the non-empty-pane count (it needs
 * no holds: see {@link WatermarkTriggerGroupByKeyOperator#outputWatermarkHold}). One read and one
 * write per element instead of a dozen cells.
 */
final class WindowPaneState {
  private static final int CLOSED = 1;
  private static final int ON_TIME_FIRED = 1 << 1;
  private static final int NON_EMPTY = 1 << 2;
  private static final int HAS_DELAY = 1 << 3;
  private static final int HAS_PANE = 1 << 4;

  /** The trigger finished (a watermark trigger without late firings, after its on-time pane). */
  boolean closed;

  /** The early sub-trigger finished: the watermark passed the end of the window and it fired. */
  boolean onTimeFired;

  /** Elements arrived since the last firing. */
  boolean nonEmpty;

  /** Elements the current sub-trigger counted. */
  long count;

  /** When the current sub-trigger's processing-time delay ends; {@link #hasDelay} says if set. */
  boolean hasDelay;

  long delayedUntil;

  /** The last pane emitted (index, non-speculative index, timing), if any since the last reset. */
  PaneInfo lastPane;

  /** Resets the current sub-trigger (its count and delay), as its {@code clear} does. */
  void clearSubTrigger() {
    count = 0;
    hasDelay = false;
    delayedUntil = 0;
  }

  /** The coder of the cell. */
  static final class StateCoder extends AtomicCoder<WindowPaneState> {
    static final StateCoder INSTANCE = new StateCoder();

    private static final PaneInfo.PaneInfoCoder PANE_CODER = PaneInfo.PaneInfoCoder.INSTANCE;

    @Override
    public void encode(WindowPaneState value, OutputStream out) throws IOException {
      int flags =
          (value.closed ? CLOSED : 0)
              | (value.onTimeFired ? ON_TIME_FIRED : 0)
              | (value.nonEmpty ? NON_EMPTY : 0)
              | (value.hasDelay ? HAS_DELAY : 0)
              | (value.lastPane != null ? HAS_PANE : 0);
      out.write(flags);
      VarInt.encode(value.count, out);
      if (value.hasDelay) {
        VarInt.encode(value.delayedUntil, out);
      }
      if (value.lastPane != null) {
        PANE_CODER.encode(value.lastPane, out);
      }
    }

    @Override
    public WindowPaneState decode(InputStream in) throws IOException {
      int flags = in.read();
      if (flags < 0) {
        throw new CoderException("window pane state: unexpected end of input");
      }
      WindowPaneState state = new WindowPaneState();
      state.closed = (flags & CLOSED) != 0;
      state.onTimeFired = (flags & ON_TIME_FIRED) != 0;
      state.nonEmpty = (flags & NON_EMPTY) != 0;
      state.hasDelay = (flags & HAS_DELAY) != 0;
      state.count = VarInt.decodeLong(in);
      if (state.hasDelay) {
        state.delayedUntil = VarInt.decodeLong(in);
      }
      if ((flags & HAS_PANE) != 0) {
        state.lastPane = PANE_CODER.decode(in);
      }
      return state;
    }

    @Override
    public void verifyDeterministic() {}

    @Override
    public List<? extends org.apache.beam.sdk.coders.Coder<?>> getCoderArguments() {
      return List.of();
    }
  }
}
