package io.arcon.portability.execution;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VoidCoder;
import org.apache.beam.sdk.util.construction.RehydratedComponents;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;
import org.apache.beam.sdk.util.construction.graph.UserStateReference;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.InvalidProtocolBufferException;

/**
 * The value coders of a stage's map, set and multimap user states, read from the states' specs in
 * the pipeline proto when a request first needs one (only a read of all of a multimap's entries
 * does). A coder of another SDK that the runner cannot instantiate is refused with its id.
 */
final class StateValueCoders {
  private final ExecutableStage stage;
  private final Map<String, Coder<?>> resolved = new HashMap<>();

  StateValueCoders(ExecutableStage stage) {
    this.stage = stage;
  }

  Coder<?> of(String transformId, String stateId) {
    return resolved.computeIfAbsent(
        transformId + "/" + stateId, k -> resolve(transformId, stateId));
  }

  private Coder<?> resolve(String transformId, String stateId) {
    for (UserStateReference reference : stage.getUserStates()) {
      if (reference.transform().getId().equals(transformId)
          && reference.localName().equals(stateId)) {
        RunnerApi.StateSpec spec = stateSpec(reference);
        String coderId =
            switch (spec.getSpecCase()) {
              case MULTIMAP_SPEC -> spec.getMultimapSpec().getValueCoderId();
              case MAP_SPEC -> spec.getMapSpec().getValueCoderId();
              case SET_SPEC -> null;
              default ->
                  throw new IllegalStateException(
                      "State "
                          + stateId
                          + " of "
                          + transformId
                          + " is a "
                          + spec.getSpecCase()
                          + ", not a map, set or multimap");
            };
        return coderId == null ? VoidCoder.of() : instantiate(coderId, transformId, stateId);
      }
    }
    throw new IllegalStateException(
        "The harness asked for state "
            + stateId
            + " of "
            + transformId
            + ", which this stage does not declare");
  }

  private static RunnerApi.StateSpec stateSpec(UserStateReference reference) {
    try {
      return RunnerApi.ParDoPayload.parseFrom(
              reference.transform().getTransform().getSpec().getPayload())
          .getStateSpecsOrThrow(reference.localName());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "Cannot read the ParDo payload of " + reference.transform().getId(), e);
    }
  }

  private Coder<?> instantiate(String coderId, String transformId, String stateId) {
    try {
      return RehydratedComponents.forComponents(stage.getComponents()).getCoder(coderId);
    } catch (IOException | RuntimeException e) {
      throw new UnsupportedOperationException(
          "ArconRunner cannot read all entries of multimap state "
              + stateId
              + " of "
              + transformId
              + ": its value coder "
              + coderId
              + " is not one the runner can instantiate (a standard Beam coder, or a Java coder"
              + " on the job server's class path)",
          e);
    }
  }
}
