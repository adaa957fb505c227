package io.arcon.tss.model;

import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import java.util.Objects;

/**
 * One extractable state of an app, as listed by {@code DESCRIBE APP}.
 *
 * @param name the canonical name EXTRACT accepts: the state id, or {@code transform.stateId} when
 *     two transforms of the app use the same id
 * @param transform the user-given name of the transform owning the state
 * @param stateId the {@code @StateId}
 * @param kind value, bag, map, ...
 * @param schema key and value types
 * @param backend the storage backend, e.g. {@code rocksdb}
 * @param consistency {@code EXACT} (version chain) or {@code WATERMARK_CUT}
 */
public record StateDescriptor(
    String name,
    String transform,
    String stateId,
    StateKind kind,
    StateSchema schema,
    String backend,
    Consistency consistency) {
  public StateDescriptor {
    Objects.requireNonNull(name, "state name");
    Objects.requireNonNull(schema, "state schema");
    transform = transform == null ? "" : transform;
    stateId = stateId == null ? name : stateId;
    kind = kind == null ? StateKind.STATE_KIND_UNSPECIFIED : kind;
    backend = backend == null ? "" : backend;
    consistency = consistency == null ? Consistency.WATERMARK_CUT : consistency;
  }
}
