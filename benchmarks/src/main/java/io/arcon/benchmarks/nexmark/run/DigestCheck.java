package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.query.Queries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Verifies runs as they finish: every run of a query over the same events must give the same digest
 * as the first one did, whichever runner made it; a query whose output depends on processing time
 * (Q12) must instead count every bid sent exactly once.
 */
public final class DigestCheck {

  private record Reference(String runner, Digest digest) {}

  private final Map<String, Reference> references = new HashMap<>();
  private final List<String> failures = new ArrayList<>();

  /**
   * Checks one run; returns whether it passed (a failure is also kept, see {@link #failures()}).
   */
  public boolean check(int query, RunnerKind runner, long events, Digest digest) {
    String failure;
    if (Queries.get(query).outputComparable()) {
      Reference reference =
          references.computeIfAbsent(
              query + "@" + events, k -> new Reference(runner.label, digest));
      failure =
          reference.digest.sameRecords(digest)
              ? null
              : String.format(
                  Locale.ROOT,
                  "Q%d over %,d events: %s gave [%s] but %s gave [%s]; the runners disagree on the"
                      + " query's output, so its throughput is not comparable",
                  query,
                  events,
                  runner.label,
                  digest,
                  reference.runner,
                  reference.digest);
    } else {
      long bids = EventGenerator.bidsAmong(events);
      failure =
          digest.countedBids() == bids
              ? null
              : String.format(
                  Locale.ROOT,
                  "Q%d over %,d events on %s counted %,d bids, but %,d were sent",
                  query,
                  events,
                  runner.label,
                  digest.countedBids(),
                  bids);
    }
    if (failure != null) {
      failures.add(failure);
    }
    return failure == null;
  }

  /** Every failed check so far, as a message saying what differed. */
  public List<String> failures() {
    return List.copyOf(failures);
  }
}
