package io.arcon.runner.translation;

import io.arcon.runner.operators.TestStreamSource;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import java.util.List;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.testing.TestStream;

/**
 * A TestStream becomes a {@link TestStreamSource}; it drives the job's manual processing-time
 * clock, which the translation then hands to the runtime.
 */
final class TestStreamTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    List events = ((TestStream<?>) node.getTransform()).getEvents();
    ManualClock clock = ctx.manualClock();
    JobActivity activity = ctx.activity();
    ctx.produce(
        node,
        ctx.addSource(node.getFullName(), () -> new TestStreamSource<>(events, clock, activity)));
  }
}
