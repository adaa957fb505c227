package io.arcon.examples.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconRunner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Reify;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DemoAppsTest {

  private static final long MAX_EVENTS = 2_000;

  /** One of the two apps, as the tests drive it. */
  private enum App {
    CLICKS(ClicksApp.JOB_NAME, ClicksApp::build, ClicksApp::events),
    STEPS(StepsApp.JOB_NAME, StepsApp::build, StepsApp::events);

    final String jobName;
    final BiFunction<Pipeline, DemoOptions, PCollection<KV<String, Long>>> build;
    final Function<DemoOptions, SimulatedEvents> events;

    App(
        String jobName,
        BiFunction<Pipeline, DemoOptions, PCollection<KV<String, Long>>> build,
        Function<DemoOptions, SimulatedEvents> events) {
      this.jobName = jobName;
      this.build = build;
      this.events = events;
    }
  }

  static Stream<Arguments> runsOnEachRunner() {
    List<Arguments> runs = new ArrayList<>();
    for (App app : App.values()) {
      runs.add(Arguments.of(app, "DirectRunner"));
      runs.add(Arguments.of(app, "TestArconRunner"));
    }
    return runs.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("runsOnEachRunner")
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyTotalIsTheSumOfExactlyTheUsersEarlierEvents(App app, String runner) {
    List<String> args = new ArrayList<>();
    args.add("--runner=" + runner);
    args.add("--maxEvents=" + MAX_EVENTS);
    args.add("--eventSecondsPerSecond=0");
    if (runner.equals("TestArconRunner")) {
      // Two instances of the keyed chain: users on both sides of the shuffle.
      args.add("--parallelism=2");
    }
    DemoOptions options = DemoApps.options(args.toArray(new String[0]), app.jobName);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<TimestampedValue<KV<String, Long>>> totals =
        app.build.apply(pipeline, options).apply(Reify.timestamps());
    PAssert.that(totals).satisfies(new MatchesOracle(app.events.apply(options), MAX_EVENTS));
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
  }

  /**
   * Checks a running-total stream against the generator's events, recomputed in plain Java. Since a
   * total is emitted per event and values are positive, ordering a user's totals gives the order
   * the DoFn processed its events in; that order must be the event-time order, and for every time
   * {@code T} the last total before {@code T} must be the sum of exactly the user's events before
   * {@code T} — the state a TSS version at {@code T} holds (DESIGN §6).
   */
  private static final class MatchesOracle
      implements SerializableFunction<Iterable<TimestampedValue<KV<String, Long>>>, Void> {
    private final SimulatedEvents events;
    private final long maxEvents;

    MatchesOracle(SimulatedEvents events, long maxEvents) {
      this.events = events;
      this.maxEvents = maxEvents;
    }

    @Override
    public Void apply(Iterable<TimestampedValue<KV<String, Long>>> outputs) {
      Map<String, List<long[]>> expected = new TreeMap<>(); // user -> (time, value)
      for (long i = 0; i < maxEvents; i++) {
        expected
            .computeIfAbsent(events.user(i), u -> new ArrayList<>())
            .add(new long[] {events.eventTime(i).getMillis(), events.value(i)});
      }
      Map<String, List<long[]>> observed = new TreeMap<>(); // user -> (time, total)
      for (TimestampedValue<KV<String, Long>> output : outputs) {
        observed
            .computeIfAbsent(output.getValue().getKey(), u -> new ArrayList<>())
            .add(new long[] {output.getTimestamp().getMillis(), output.getValue().getValue()});
      }
      assertEquals(expected.keySet(), observed.keySet(), "users with totals");
      for (String user : expected.keySet()) {
        List<long[]> inputs = expected.get(user);
        List<long[]> totals = observed.get(user);
        inputs.sort(Comparator.comparingLong(e -> e[0]));
        totals.sort(Comparator.comparingLong(t -> t[1]));
        assertEquals(inputs.size(), totals.size(), "one total per event of " + user);
        for (int k = 0; k < inputs.size(); k++) {
          // Totals grow with every event processed: the k-th total must come from the k-th event
          // in event-time order.
          assertEquals(
              inputs.get(k)[0],
              totals.get(k)[0],
              user + "'s total #" + (k + 1) + " comes from an event out of event-time order");
        }
        Set<Long> cuts = new TreeSet<>();
        for (long[] input : inputs) {
          cuts.add(input[0]); // T exactly at an event: that event is not in the version
          cuts.add(input[0] + 1); // T just after it: it is
        }
        for (long cut : cuts) {
          long sumBefore = inputs.stream().filter(e -> e[0] < cut).mapToLong(e -> e[1]).sum();
          long lastTotalBefore =
              totals.stream().filter(t -> t[0] < cut).mapToLong(t -> t[1]).max().orElse(0);
          assertEquals(sumBefore, lastTotalBefore, user + "'s state at " + cut);
        }
      }
      return null;
    }
  }

  @Test
  void appsDefaultToArconRunnerStreamingUnderTheirOwnNames() {
    DemoOptions clicks = DemoApps.options(new String[0], ClicksApp.JOB_NAME);
    assertSame(ArconRunner.class, clicks.getRunner());
    assertEquals("clicks", clicks.getJobName());
    assertTrue(clicks.isStreaming());
    DemoOptions steps =
        DemoApps.options(
            new String[] {"--runner=DirectRunner", "--jobName=steps_b"}, StepsApp.JOB_NAME);
    assertSame(DirectRunner.class, steps.getRunner());
    assertEquals("steps_b", steps.getJobName());
  }

  @Test
  void eachAppKeepsOneTimeSortedStateNamedAfterIt() {
    DoFnSignature clicks = DoFnSignatures.getSignature(ClicksApp.CountClicks.class);
    assertEquals(Set.of("clicks"), clicks.stateDeclarations().keySet());
    assertTrue(clicks.processElement().requiresTimeSortedInput());
    DoFnSignature steps = DoFnSignatures.getSignature(StepsApp.CountSteps.class);
    assertEquals(Set.of("steps"), steps.stateDeclarations().keySet());
    assertTrue(steps.processElement().requiresTimeSortedInput());
  }

  @Test
  void theAppsDrawDifferentEventsForTheSameUsers() {
    DemoOptions options = DemoApps.options(new String[0], "x");
    SimulatedEvents clicks = ClicksApp.events(options);
    SimulatedEvents steps = StepsApp.events(options);
    assertEquals(clicks.users(), steps.users());
    long sameUser = 0;
    for (long i = 0; i < 1_000; i++) {
      assertEquals(1, clicks.value(i));
      if (clicks.user(i).equals(steps.user(i))) {
        sameUser++;
      }
    }
    // Independent draws over 5 users agree about a fifth of the time, not always.
    assertTrue(sameUser < 400, sameUser + " of 1000 events have the same user");
  }

  @Test
  void badOptionsAreRefusedNamingTheOption() {
    assertEquals(
        "--users must be comma-separated names without empty ones, got 'alice,,bob';"
            + " e.g. --users=alice,bob,carol",
        refusal("--users=alice,,bob"));
    assertEquals(
        "--startTime must be an ISO-8601 instant with an offset, e.g. 2026-12-02T13:00:00Z,"
            + " got '2026-12-02 13:00'",
        refusal("--startTime=2026-12-02 13:00"));
    assertEquals(
        "--eventSecondsPerSecond must be a finite number >= 0 (0 = as fast as possible), got -1.0",
        refusal("--eventSecondsPerSecond=-1"));
    assertEquals("--maxEvents must not be negative, got -5", refusal("--maxEvents=-5"));
    assertEquals("--eventSpacingMillis must be positive, got 0", refusal("--eventSpacingMillis=0"));
    assertEquals("--maxDelayMillis must not be negative, got -1", refusal("--maxDelayMillis=-1"));
  }

  private static String refusal(String arg) {
    DemoOptions options =
        DemoApps.options(new String[] {"--runner=DirectRunner", arg}, ClicksApp.JOB_NAME);
    return assertThrows(
            IllegalArgumentException.class,
            () -> ClicksApp.build(Pipeline.create(options), options))
        .getMessage();
  }
}
