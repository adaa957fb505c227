package io.arcon.runner.tss.catalog;

import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * A stateful ParDo of the pipeline, as the translator sees it.
 *
 * @param transformFullName the transform's full name (e.g. {@code Count clicks/ParMultiDo(Count)})
 * @param fn the DoFn of the applied transform (its StateSpecs have their coders filled in)
 * @param keyCoder the key coder of the transform's {@code KvCoder} input
 * @param backend the state backend of the transform, e.g. {@code rocksdb}
 * @param exact whether its states are exported exactly (time-sorted input) or as a watermark cut
 */
public record StatefulDoFnInfo(
    String transformFullName, DoFn<?, ?> fn, Coder<?> keyCoder, String backend, boolean exact) {
  public StatefulDoFnInfo {
    Objects.requireNonNull(transformFullName, "transformFullName");
    Objects.requireNonNull(fn, "fn of " + transformFullName);
    Objects.requireNonNull(keyCoder, "keyCoder of " + transformFullName);
    Objects.requireNonNull(backend, "backend of " + transformFullName);
  }
}
