package io.arcon.portability.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.FinalizeBundleRequest;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.InstructionRequest;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.InstructionResponse;
import org.apache.beam.runners.fnexecution.control.BundleFinalizationHandler;
import org.apache.beam.runners.fnexecution.control.InstructionRequestHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bundle finalization for one stage instance: the harness names the bundles that registered
 * callbacks, and {@link #finalizeOutstandingBundles} asks it to run them once the bundles' output
 * is committed (at once without epochs, at epoch completion with them). It waits for the harness's
 * answers, so the callbacks have run before the stage's next bundle starts — what a DoFn that
 * registers a callback and checks for it in a later bundle observes (Beam's in-memory finalizer
 * only sends the requests).
 */
final class StageBundleFinalizer implements BundleFinalizationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(StageBundleFinalizer.class);
  private static final long ANSWER_SECONDS = 60;

  /**
   * Instruction ids of the finalization requests: the control client matches an answer to its
   * request by id, so every request needs its own (without one, all were keyed "" and every answer
   * but the first was dropped, each left waiting {@value #ANSWER_SECONDS} s).
   */
  private static final AtomicLong REQUESTS = new AtomicLong();

  private final InstructionRequestHandler control;
  private final String stepName;
  private final List<String> bundleIds = new ArrayList<>();

  StageBundleFinalizer(InstructionRequestHandler control, String stepName) {
    this.control = control;
    this.stepName = stepName;
  }

  @Override
  public synchronized void requestsFinalization(String bundleId) {
    bundleIds.add(bundleId);
  }

  synchronized void finalizeOutstandingBundles() {
    List<CompletableFuture<InstructionResponse>> answers = new ArrayList<>();
    for (String bundleId : bundleIds) {
      answers.add(
          control
              .handle(
                  InstructionRequest.newBuilder()
                      .setInstructionId("arcon-finalize-" + REQUESTS.incrementAndGet())
                      .setFinalizeBundle(
                          FinalizeBundleRequest.newBuilder().setInstructionId(bundleId))
                      .build())
              .toCompletableFuture());
    }
    bundleIds.clear();
    for (CompletableFuture<InstructionResponse> answer : answers) {
      try {
        InstructionResponse response = answer.get(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (!response.getError().isEmpty()) {
          // A failing callback does not undo committed output; Beam's runners log it.
          LOG.warn(
              "A bundle finalization callback of {} failed: {}", stepName, response.getError());
        }
      } catch (TimeoutException e) {
        LOG.warn(
            "The SDK harness did not finalize a bundle of {} within {} s",
            stepName,
            ANSWER_SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        LOG.warn("Finalizing a bundle of {} failed", stepName, e.getCause());
      } catch (InterruptedException e) {
        // The node is stopping: the callbacks are best effort, as Beam defines them.
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
