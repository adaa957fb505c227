package io.arcon.examples.tss;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Options of the TSS demo apps ({@link ClicksApp}, {@link StepsApp}). */
public interface DemoOptions extends StreamingOptions {

  @Description("Event time at which the simulated clock starts (ISO-8601 with an offset)")
  @Default.String("2026-12-02T13:00:00Z")
  String getStartTime();

  void setStartTime(String value);

  @Description(
      "Speed of the simulated clock in event seconds per wall-clock second (60: one event minute"
          + " per second); 0 = as fast as possible")
  @Default.Double(60)
  double getEventSecondsPerSecond();

  void setEventSecondsPerSecond(double value);

  @Description("The users, comma-separated")
  @Default.String("alice,bob,carol,dave,erin")
  String getUsers();

  void setUsers(String value);

  @Description("Simulated time between two consecutive events, in milliseconds")
  @Default.Long(500)
  long getEventSpacingMillis();

  void setEventSpacingMillis(long value);

  @Description(
      "How far an event's time may lie behind the simulated clock when it is emitted, in"
          + " milliseconds: the stream's out-of-orderness; the watermark trails the clock by this")
  @Default.Long(5_000)
  long getMaxDelayMillis();

  void setMaxDelayMillis(long value);

  @Description("Events to emit before the source ends; unset = never ends")
  @Nullable Long getMaxEvents();

  void setMaxEvents(@Nullable Long value);

  @Description("Seed of the users, delays and values drawn; unset = the app's own seed")
  @Nullable Long getSeed();

  void setSeed(@Nullable Long value);
}
