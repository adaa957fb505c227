package io.arcon.runner.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.VarInt;

/**
 * Everything {@link WatermarkTriggerGroupByKeyOperator} keeps about one window of one key besides
 * its buffered values, in one state cell: what runners-core spreads over the trigger's finished
 * bits, its sub-triggers' counts and delays, the pane tracker and the non-empty-pane count (it
 * needs no holds: see {@link WatermarkTriggerGroupByKeyOperator#outputWatermarkHold}). One read and
 * one write per element instead of a dozen cells.
 */
final class WindowPaneState {
  private static final int CLOSED = 1;
  private static final int ON_TIME_FIRED = 1 << 1;
  private static final int NON_EMPTY = 1 << 2;
  private static final int HAS_PANE = 1 << 3;
  private static final int EARLY_DELAY = 1 << 4;
  private static final int LATE_DELAY = 1 << 5;

  /** The state of one sub-trigger: the elements it counted, or when its delay ends. */
  static final class SubState {
    long count;
    boolean hasDelay;
    long delayedUntil;

    void copyFrom(SubState other) {
      count = other.count;
      hasDelay = other.hasDelay;
      delayedUntil = other.delayedUntil;
    }

    /** The sub-trigger's {@code clear}. */
    void clear() {
      count = 0;
      hasDelay = false;
      delayedUntil = 0;
    }
  }

  /** The trigger finished (a watermark trigger without late firings, after its on-time pane). */
  boolean closed;

  /** The early sub-trigger finished: the watermark passed the end of the window and it fired. */
  boolean onTimeFired;

  /** Elements arrived since the last firing. */
  boolean nonEmpty;

  /**
   * The sub-triggers' states. Over non-merging windows only the current one (early before the
   * on-time pane, late after) sees elements; over merging windows both do, as in runners-core.
   */
  final SubState early = new SubState();

  final SubState late = new SubState();

  /** The last pane emitted (index, non-speculative index, timing), if any since the last reset. */
  PaneInfo lastPane;

  /** A copy: the same state in new objects (a {@link PaneInfo} is immutable). */
  WindowPaneState copy() {
    WindowPaneState copy = new WindowPaneState();
    copy.closed = closed;
    copy.onTimeFired = onTimeFired;
    copy.nonEmpty = nonEmpty;
    copy.early.copyFrom(early);
    copy.late.copyFrom(late);
    copy.lastPane = lastPane;
    return copy;
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
              | (value.lastPane != null ? HAS_PANE : 0)
              | (value.early.hasDelay ? EARLY_DELAY : 0)
              | (value.late.hasDelay ? LATE_DELAY : 0);
      out.write(flags);
      encode(value.early, out);
      encode(value.late, out);
      if (value.lastPane != null) {
        PANE_CODER.encode(value.lastPane, out);
      }
    }

    private static void encode(SubState sub, OutputStream out) throws IOException {
      VarInt.encode(sub.count, out);
      if (sub.hasDelay) {
        VarInt.encode(sub.delayedUntil, out);
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
      decode(state.early, (flags & EARLY_DELAY) != 0, in);
      decode(state.late, (flags & LATE_DELAY) != 0, in);
      if ((flags & HAS_PANE) != 0) {
        state.lastPane = PANE_CODER.decode(in);
      }
      return state;
    }

    private static void decode(SubState sub, boolean hasDelay, InputStream in) throws IOException {
      sub.count = VarInt.decodeLong(in);
      sub.hasDelay = hasDelay;
      if (hasDelay) {
        sub.delayedUntil = VarInt.decodeLong(in);
      }
    }

    @Override
    public void verifyDeterministic() {}

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of();
    }
  }
}
