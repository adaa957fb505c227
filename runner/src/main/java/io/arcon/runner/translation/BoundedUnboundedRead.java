package io.arcon.runner.translation;

import io.arcon.runner.operators.UnboundedReadSource;
import java.lang.reflect.Field;
import org.apache.beam.sdk.io.BoundedReadFromUnboundedSource;
import org.apache.beam.sdk.io.UnboundedSource;
import org.joda.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source and limits of a {@link BoundedReadFromUnboundedSource}. Beam keeps them in private
 * fields without getters, so they are read reflectively; if a Beam version renames them the
 * transform is left to Beam's own expansion (slower, still correct) with a warning.
 */
record BoundedUnboundedRead(UnboundedSource<?, ?> source, UnboundedReadSource.Limits limits) {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedUnboundedRead.class);

  static BoundedUnboundedRead of(BoundedReadFromUnboundedSource<?> read) {
    try {
      UnboundedSource<?, ?> source = (UnboundedSource<?, ?>) field(read, "source");
      long maxNumRecords = (Long) field(read, "maxNumRecords");
      Duration maxReadTime = (Duration) field(read, "maxReadTime");
      long maxReadTimeMillis = maxReadTime == null ? Long.MAX_VALUE : maxReadTime.getMillis();
      return new BoundedUnboundedRead(
          source, new UnboundedReadSource.Limits(maxNumRecords, maxReadTimeMillis));
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn(
          "Cannot read the settings of {}; running Beam's expansion of it instead: {}",
          read.getClass().getName(),
          e.toString());
      return null;
    }
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    Field f = BoundedReadFromUnboundedSource.class.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(target);
  }
}
