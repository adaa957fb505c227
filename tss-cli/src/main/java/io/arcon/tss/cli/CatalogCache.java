package io.arcon.tss.cli;

import io.arcon.tss.client.TssClient;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.proto.StateInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The names the shell completes — apps, {@code app.state} references and TSS names — fetched from
 * the control plane and reused for a few seconds, so that pressing TAB does not cost a round trip
 * per keystroke. Fetch failures leave the last known names in place: completion must never break
 * the shell.
 */
final class CatalogCache {
  private static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** One fetch of the control plane's names. */
  record Names(List<String> apps, List<String> stateRefs, List<String> tss) {
    static final Names EMPTY = new Names(List.of(), List.of(), List.of());
  }

  private final TssClient client;
  private Names names = Names.EMPTY;
  private long fetchedAt;
  private boolean fresh;

  CatalogCache(TssClient client) {
    this.client = client;
  }

  /** The names, refetched when older than a few seconds or after {@link #invalidate()}. */
  synchronized Names names() {
    if (!fresh || System.nanoTime() - fetchedAt > MAX_AGE_NANOS) {
      fetchedAt = System.nanoTime();
      fresh = true;
      try {
        names = fetch();
      } catch (RuntimeException e) {
        // Unreachable or refusing control plane: keep completing keywords and the last names.
      }
    }
    return names;
  }

  /** Forgets the names after a statement that may have changed them (CREATE, DROP). */
  synchronized void invalidate() {
    fresh = false;
  }

  private Names fetch() {
    List<String> apps = new ArrayList<>();
    List<String> stateRefs = new ArrayList<>();
    for (AppSummary app : client.showApps()) {
      apps.add(app.getName());
      for (StateInfo state : client.describeApp(app.getName()).getStatesList()) {
        stateRefs.add(app.getName() + "." + state.getName());
      }
    }
    List<String> tss = new ArrayList<>();
    for (List<String> row : client.showTss().rows()) {
      if (!row.isEmpty()) {
        tss.add(row.get(0));
      }
    }
    return new Names(List.copyOf(apps), List.copyOf(stateRefs), List.copyOf(tss));
  }
}
