package io.arcon.examples.tss;

import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * What {@link ClicksApp} and {@link StepsApp} share: their command line with the demo's defaults,
 * their simulated input, and running until stopped.
 */
public final class DemoApps {

  private DemoApps() {}

  /**
   * Parses an app's arguments. Unless they say otherwise, the app runs on ArconRunner, in streaming
   * mode, as job {@code jobName} — which is the name it registers with the TSS control plane.
   */
  public static DemoOptions options(String[] args, String jobName) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    if (!given(all, "runner")) {
      all.add("--runner=ArconRunner");
    }
    if (!given(all, "jobName")) {
      all.add("--jobName=" + jobName);
    }
    DemoOptions options =
        PipelineOptionsFactory.fromArgs(all.toArray(new String[0]))
            .withValidation()
            .as(DemoOptions.class);
    options.setStreaming(true);
    return options;
  }

  /** Whether {@code --name=...} (or the bare flag) is among the arguments. */
  private static boolean given(List<String> args, String name) {
    return args.stream().anyMatch(a -> a.equals("--" + name) || a.startsWith("--" + name + "="));
  }

  /**
   * The events the options describe, with values in {@code [minValue, maxValue]}.
   *
   * @param defaultSeed the app's own seed, used unless {@code --seed} is given
   */
  public static SimulatedEvents events(
      DemoOptions options, long defaultSeed, long minValue, long maxValue) {
    if (options.getEventSpacingMillis() <= 0) {
      throw new IllegalArgumentException(
          "--eventSpacingMillis must be positive, got " + options.getEventSpacingMillis());
    }
    if (options.getMaxDelayMillis() < 0) {
      throw new IllegalArgumentException(
          "--maxDelayMillis must not be negative, got " + options.getMaxDelayMillis());
    }
    List<String> users =
        Arrays.stream(options.getUsers().split(",", -1)).map(String::strip).toList();
    if (users.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException(
          "--users must be comma-separated names without empty ones, got '"
              + options.getUsers()
              + "'; e.g. --users=alice,bob,carol");
    }
    Long seed = options.getSeed();
    return new SimulatedEvents(
        startTime(options),
        users,
        Duration.millis(options.getEventSpacingMillis()),
        Duration.millis(options.getMaxDelayMillis()),
        seed == null ? defaultSeed : seed,
        minValue,
        maxValue);
  }

  private static Instant startTime(DemoOptions options) {
    try {
      return new Instant(java.time.Instant.parse(options.getStartTime()).toEpochMilli());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--startTime must be an ISO-8601 instant with an offset, e.g. 2026-12-02T13:00:00Z, got '"
              + options.getStartTime()
              + "'",
          e);
    }
  }

  /** Reads {@code events} as a timestamped, unbounded {@code (user, value)} stream. */
  public static PCollection<KV<String, Long>> read(
      Pipeline pipeline, String name, DemoOptions options, SimulatedEvents events) {
    double speed = options.getEventSecondsPerSecond();
    if (!(speed >= 0) || Double.isInfinite(speed)) {
      throw new IllegalArgumentException(
          "--eventSecondsPerSecond must be a finite number >= 0 (0 = as fast as possible), got "
              + speed);
    }
    Long maxEvents = options.getMaxEvents();
    if (maxEvents != null && maxEvents < 0) {
      throw new IllegalArgumentException("--maxEvents must not be negative, got " + maxEvents);
    }
    return pipeline.apply(
        name,
        Read.from(
            new SimulatedEventSource(
                events, maxEvents == null ? SimulatedEventSource.UNBOUNDED : maxEvents, speed)));
  }

  /** Runs an app's pipeline until it ends (with {@code --maxEvents}) or the JVM is stopped. */
  static void run(Pipeline pipeline, DemoOptions options, SimulatedEvents events) {
    System.out.printf(
        "%s: on %s, users %s, event time from %s at %s event seconds per second%s%n",
        options.getJobName(),
        options.getRunner().getSimpleName(),
        String.join(",", events.users()),
        events.start(),
        options.getEventSecondsPerSecond(),
        options.getMaxEvents() == null
            ? " until stopped (Ctrl-C)"
            : ", " + options.getMaxEvents() + " events");
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    System.out.println(options.getJobName() + ": " + state);
  }
}
