package io.arcon.runtime.node.finish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FinishProtocolTest {
  private final List<String> steps = new ArrayList<>();
  private boolean pendingWork;
  private boolean blocked;

  private final FinishProtocol protocol =
      new FinishProtocol(
          new FinishProtocol.Steps() {
            @Override
            public void deliverFinalWatermark() {
              steps.add("final watermark");
            }

            @Override
            public boolean hasPendingWork() {
              return pendingWork;
            }

            @Override
            public void endOperators() {
              steps.add("end operators");
            }

            @Override
            public void sendEndOfStream() {
              steps.add("end of stream");
            }

            @Override
            public boolean outputBlocked() {
              return blocked;
            }

            @Override
            public void complete() {
              steps.add("complete");
            }
          });

  @Test
  void runsEveryStepOnceInOrder() throws Exception {
    assertFalse(protocol.afterWork(), "a running node keeps working");
    protocol.inputsEnded();
    protocol.inputsEnded();
    assertTrue(protocol.afterWork());
    assertEquals(List.of("final watermark", "end operators", "end of stream", "complete"), steps);
    assertTrue(protocol.isStopped());
  }

  @Test
  void waitsForTheOperatorsPendingWork() throws Exception {
    pendingWork = true;
    protocol.inputsEnded();
    assertTrue(protocol.inputsHaveEnded());
    assertFalse(protocol.isFinishing());
    assertFalse(protocol.afterWork(), "timers still run while work is pending");
    assertFalse(protocol.afterWork());
    pendingWork = false;
    assertTrue(protocol.afterWork());
    assertEquals(
        List.of("final watermark", "end operators", "end of stream", "complete"),
        steps,
        "the final watermark is delivered once");
  }

  @Test
  void completesOnlyAfterTheLastMessagesLeft() throws Exception {
    blocked = true;
    protocol.inputsEnded();
    assertTrue(protocol.isFinishing());
    assertTrue(protocol.afterWork(), "a finishing node schedules nothing more");
    assertFalse(steps.contains("complete"));
    blocked = false;
    protocol.tryComplete();
    protocol.tryComplete();
    assertEquals(1, steps.stream().filter("complete"::equals).count());
  }

  @Test
  void aStoppedNodeDoesNothingMore() throws Exception {
    protocol.stop();
    protocol.inputsEnded();
    protocol.tryComplete();
    assertTrue(protocol.afterWork());
    assertTrue(steps.isEmpty());
  }
}
