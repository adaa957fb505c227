package io.arcon.tss.server;

import static io.arcon.tss.server.CatalogFixtures.T;
import static io.arcon.tss.server.CatalogFixtures.minutes;
import static io.arcon.tss.server.CatalogFixtures.spec;
import static io.arcon.tss.server.CatalogFixtures.unbounded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.wire.ProtoTime;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionSchedulerTest {
  @TempDir Path home;

  private CatalogStore store;
  private AppRegistry apps;
  private TssCatalog tsss;
  private VersionScheduler scheduler;
  private final LakeLayout lake = new LakeLayout("s3a://bucket/lake");

  @BeforeEach
  void catalog() {
    store = new CatalogStore(home);
    apps = new AppRegistry(store);
    tsss = new TssCatalog(store, apps);
    scheduler = new VersionScheduler(apps, tsss, lake);
  }

  private TssState add(TssSpec spec) {
    TssState tss = new TssState(spec);
    tsss.add(tss);
    return tss;
  }

  private RecordedStream connect(String app, String... states) {
    RecordedStream stream = new RecordedStream();
    List<StateDescriptor> descriptors =
        Arrays.stream(states).map(CatalogFixtures::counter).toList();
    apps.register(new AppSession(stream), new Registration(app, descriptors));
    return stream;
  }

  private static List<Instant> versions(List<ExtractionAssignment> assignments) {
    return assignments.stream().map(a -> ProtoTime.toInstant(a.getVersion())).toList();
  }

  @Test
  void theFirstVersionExistsAtOnceAndTheNextOnceAnAppPassedIt() {
    TssState tss = add(unbounded("t", "a.clicks", "b.steps"));
    scheduler.extend(tss);
    assertEquals(List.of(T), List.copyOf(tss.openTimes()));
    connect("a", "clicks");
    connect("b", "steps");
    scheduler.extendFor("a");
    assertEquals(1, tss.openCount(), "no watermark yet");

    apps.get("a").reportWatermark(minutes(11));
    scheduler.extendFor("a");
    assertEquals(
        List.of(T, minutes(5), minutes(10), minutes(15)),
        List.copyOf(tss.openTimes()),
        "the passed versions plus the next one");
    assertEquals(4, store.loadTss().get(0).getVersionsCount(), "the new versions are persisted");
  }

  @Test
  void aBoundedScheduleEndsAtUntil() {
    TssState tss = add(spec("t", 2, false, "a.clicks"));
    connect("a", "clicks");
    apps.get("a").reportWatermark(minutes(60));
    scheduler.extend(tss);
    assertEquals(List.of(T, minutes(5)), List.copyOf(tss.openTimes()));
  }

  @Test
  void aWatermarkAtTheEndOfTimeOpensAtMostTheCap() {
    TssState tss = add(unbounded("t", "a.clicks"));
    connect("a", "clicks");
    apps.get("a").reportWatermark(Instant.parse("9999-01-01T00:00:00Z"));
    scheduler.extend(tss);
    assertEquals(VersionScheduler.MAX_PENDING_VERSIONS, tss.openCount());
  }

  @Test
  void assignmentsGoToAppsThatPassedTheVersionOncePerStream() {
    TssState tss = add(spec("t", 3, false, "a.clicks", "a.views", "b.steps"));
    RecordedStream a = connect("a", "clicks", "views");
    RecordedStream b = connect("b", "steps");
    apps.get("a").reportWatermark(minutes(6));
    scheduler.extendFor("a");
    scheduler.dispatchAll();
    scheduler.dispatch(tss);

    assertEquals(List.of(T, minutes(5)), versions(a.assignments()));
    ExtractionAssignment first = a.assignments().get(0);
    assertEquals("t", first.getTss());
    assertEquals(List.of("clicks", "views"), first.getStatesList());
    assertEquals(lake.appDir("t", T, "a"), first.getTargetDirectory());
    assertFalse(first.hasKeyFilter());
    assertEquals(List.of(), b.assignments(), "b has no watermark yet");

    tss.seal("b", T, List.of());
    apps.get("b").reportWatermark(minutes(6));
    scheduler.dispatch(tss);
    assertEquals(List.of(minutes(5)), versions(b.assignments()), "b sealed T already");
  }

  @Test
  void aDisconnectedAppAndACommittingVersionGetNothing() {
    TssState tss = add(spec("t", 1, false, "a.clicks"));
    scheduler.extend(tss);
    RecordedStream a = connect("a", "clicks");
    apps.get("a").reportWatermark(minutes(1));
    tss.seal("a", T, List.of());
    tss.startCommit();
    scheduler.dispatch(tss);
    assertEquals(List.of(), a.assignments());

    TssState other = add(spec("u", 1, false, "a.clicks"));
    scheduler.extend(other);
    AppSession session = apps.get("a").session();
    apps.disconnected(session);
    scheduler.dispatch(other);
    assertEquals(List.of(), a.assignments());
    assertTrue(other.awaitsSeal("a", T));
  }
}
