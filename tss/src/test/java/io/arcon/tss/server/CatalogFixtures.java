package io.arcon.tss.server;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Plain catalog objects for the unit tests of the control plane's parts. */
final class CatalogFixtures {
  static final Instant T = Instant.parse("2026-12-02T13:00:00Z");
  static final StateSchema COUNTER = new StateSchema(FieldType.STRING, FieldType.INT64);

  private CatalogFixtures() {}

  /** A control plane over {@code home} and {@code lake}, resumed from what the catalog holds. */
  static ControlPlane startedPlane(Path home, LakeLayout lake) {
    ControlPlane plane = new ControlPlane(new CatalogStore(home), lake, new VersionCommitter(lake));
    plane.resume();
    return plane;
  }

  /**
   * Registers app {@code app} with counter states {@code states} on a new session of {@code
   * stream}.
   */
  static AppSession register(
      ControlPlane plane, RecordedStream stream, String app, String... states) {
    AppSession session = new AppSession(stream);
    plane.register(
        session,
        new Registration(
            app, Arrays.stream(states).map(CatalogFixtures::counter).toList(), app + "-agent"));
    return session;
  }

  /** A counter state keyed by STRING. */
  static StateDescriptor counter(String name) {
    return new StateDescriptor(
        name, "Count_" + name, name, StateKind.VALUE, COUNTER, "memory", Consistency.EXACT);
  }

  /**
   * A TSS every five minutes from {@link #T} until {@code versions - 1} periods later, over {@code
   * app.state} references given as {@code "app.state"}.
   */
  static TssSpec spec(String name, int versions, boolean diff, String... refs) {
    List<TssSpec.ExtractedState> states = new ArrayList<>();
    for (String ref : refs) {
      int dot = ref.indexOf('.');
      states.add(
          new TssSpec.ExtractedState(ref.substring(0, dot), ref.substring(dot + 1), COUNTER));
    }
    Duration every = versions == 1 ? null : Duration.ofMinutes(5);
    Instant until = versions <= 1 ? null : T.plus(Duration.ofMinutes(5L * (versions - 1)));
    return new TssSpec(
        name, "CREATE TSS " + name + " ...", states, null, T, null, every, until, diff, null, T);
  }

  /** An unbounded TSS every five minutes from {@link #T}. */
  static TssSpec unbounded(String name, String... refs) {
    TssSpec bounded = spec(name, 2, false, refs);
    return new TssSpec(
        name,
        bounded.statement(),
        bounded.states(),
        null,
        T,
        null,
        Duration.ofMinutes(5),
        null,
        false,
        null,
        T);
  }

  static Instant minutes(long m) {
    return T.plus(Duration.ofMinutes(m));
  }
}
