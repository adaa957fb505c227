package io.arcon.tss.server;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The extractions still running for dropped TSSs. An app extracts an assigned version on its own
 * thread and writes the files before it reports; a DROP TSS in the meantime cannot stop that write,
 * so the files (and directories) it makes appear after the drop removed the TSS's directory. Until
 * every such extraction has reported (sealed or failed) or its app's stream has ended, the name
 * stays reserved: CREATE TSS of it is refused, and the control plane removes the directory again
 * after each report, so a new TSS of the name never shares a directory with a dropped one's
 * writers.
 *
 * <p>Guarded by the control plane's lock.
 */
final class DroppedExtractions {
  /** An assignment sent on {@code session} for version {@code version}. */
  private record Outstanding(AppSession session, Instant version) {}

  /**
   * Per dropped TSS name, the extractions it waits for. A name stays (with an empty list) after its
   * last report until {@link #releaseIfDone}, which the control plane calls once it removed the
   * files that report left.
   */
  private final Map<String, List<Outstanding>> byTss = new HashMap<>();

  /** {@code tss} was dropped while {@code session} had the assignment of {@code version}. */
  void add(String tss, AppSession session, Instant version) {
    byTss.computeIfAbsent(tss, t -> new ArrayList<>()).add(new Outstanding(session, version));
  }

  /** Whether extractions of a dropped TSS named {@code tss} are still running. */
  boolean reserves(String tss) {
    return byTss.containsKey(tss);
  }

  /** What a dropped {@code tss} still waits for: "app a (version T, ...)", for messages. */
  String describe(String tss) {
    Map<String, Set<Instant>> versionsByApp = new TreeMap<>();
    for (Outstanding o : byTss.getOrDefault(tss, List.of())) {
      versionsByApp.computeIfAbsent(o.session().app(), a -> new TreeSet<>()).add(o.version());
    }
    return versionsByApp.entrySet().stream()
        .map(
            e ->
                "app "
                    + e.getKey()
                    + " (version "
                    + e.getValue().stream().map(Instant::toString).collect(Collectors.joining(", "))
                    + ")")
        .collect(Collectors.joining(", "));
  }

  /**
   * {@code session} reported its extraction of {@code version} of a dropped {@code tss}.
   *
   * @return whether {@code tss} was dropped with that extraction outstanding (its files are then to
   *     be removed)
   */
  boolean reported(String tss, AppSession session, Instant version) {
    List<Outstanding> outstanding = byTss.get(tss);
    return outstanding != null && outstanding.remove(new Outstanding(session, version));
  }

  /** Frees the name {@code tss} for a new TSS if no extraction of the dropped one is left. */
  void releaseIfDone(String tss) {
    List<Outstanding> outstanding = byTss.get(tss);
    if (outstanding != null && outstanding.isEmpty()) {
      byTss.remove(tss);
    }
  }

  /**
   * {@code session}'s stream ended: its extractions will not report.
   *
   * @return the dropped TSSs it had extractions of, whose files are then to be removed
   */
  List<String> sessionEnded(AppSession session) {
    List<String> touched = new ArrayList<>();
    for (Map.Entry<String, List<Outstanding>> e : byTss.entrySet()) {
      if (e.getValue().removeIf(o -> o.session() == session)) {
        touched.add(e.getKey());
      }
    }
    return touched;
  }
}
