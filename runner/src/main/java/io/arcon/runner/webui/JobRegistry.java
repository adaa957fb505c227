package io.arcon.runner.webui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * The jobs one server shows, in registration order: every running job, and the newest {@value
 * #ENDED_KEPT} ended ones, so a job's final figures stay readable after it ended.
 */
final class JobRegistry {
  static final int ENDED_KEPT = 16;

  private final ExecutorService tssQueries;
  private final Map<String, RegisteredJob> byId = new LinkedHashMap<>(); // guarded by this
  private final Map<String, Integer> idsTaken = new HashMap<>(); // guarded by this
  private final Set<String> issued = new HashSet<>(); // guarded by this

  JobRegistry(ExecutorService tssQueries) {
    this.tssQueries = tssQueries;
  }

  /** Adds a job under an id made from its name (unique on this server, never reused). */
  synchronized RegisteredJob add(ObservedJob job) {
    String base = idOf(job.name());
    String id;
    do {
      // "a b" and "a-b-2" both lead to the id a-b-2: count on past ids any name was given.
      int taken = idsTaken.merge(base, 1, Integer::sum);
      id = taken == 1 ? base : base + "-" + taken;
    } while (!issued.add(id));
    RegisteredJob registered = new RegisteredJob(id, job, tssQueries);
    byId.put(id, registered);
    forgetOldEndedJobs();
    return registered;
  }

  /** A job name as a URL path segment: letters, digits, '.', '_' and '-'. */
  static String idOf(String jobName) {
    String id = jobName == null ? "" : jobName.replaceAll("[^A-Za-z0-9._-]+", "-");
    return id.isEmpty() || id.equals(".") || id.equals("..") ? "job" : id;
  }

  synchronized Optional<RegisteredJob> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  synchronized Optional<RegisteredJob> find(ObservedJob job) {
    return byId.values().stream().filter(r -> r.job() == job).findFirst();
  }

  /** The jobs shown, oldest first. */
  synchronized List<RegisteredJob> all() {
    return new ArrayList<>(byId.values());
  }

  /** Takes a reading of every job that has not ended yet, and forgets the oldest ended jobs. */
  void sampleAll() {
    for (RegisteredJob job : all()) {
      job.figures().sample();
    }
    synchronized (this) {
      forgetOldEndedJobs();
    }
  }

  private void forgetOldEndedJobs() {
    long ended = byId.values().stream().filter(r -> r.figures().ended()).count();
    Iterator<RegisteredJob> oldestFirst = byId.values().iterator();
    while (ended > ENDED_KEPT && oldestFirst.hasNext()) {
      RegisteredJob job = oldestFirst.next();
      if (job.figures().ended()) {
        oldestFirst.remove();
        job.forget();
        ended--;
      }
    }
  }
}
