package io.arcon.runner.progress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sources of one job run have read: a {@link SourceProgress} per source instance. A
 * restarted attempt's instance replaces the previous attempt's: the figures describe the attempt
 * that runs, which re-reads from its restored position (or from the start), so elements read twice
 * are not counted twice and the size estimate is that of what is left to read.
 */
public final class ReadProgress {
  /** Source instances by step (the read transform's full name), then instance index. */
  private final Map<String, Map<Integer, SourceProgress>> sources = new HashMap<>();

  /**
   * Registers a source instance that opens, replacing an earlier attempt's counters of the same
   * instance.
   *
   * @param step the read transform's full name
   * @param instance the instance's index
   * @param bounded whether the source is bounded
   */
  public synchronized SourceProgress register(String step, int instance, boolean bounded) {
    SourceProgress progress = new SourceProgress(bounded);
    sources.computeIfAbsent(step, s -> new HashMap<>()).put(instance, progress);
    return progress;
  }

  /** A reading of every registered source instance, in no particular order. */
  public synchronized List<SourceProgress.Sample> sampleSources() {
    List<SourceProgress.Sample> samples = new ArrayList<>();
    for (Map<Integer, SourceProgress> instances : sources.values()) {
      for (SourceProgress instance : instances.values()) {
        samples.add(instance.sample());
      }
    }
    return samples;
  }

  /** The job's sources together. */
  public Totals total() {
    return Totals.of(sampleSources());
  }

  /**
   * What all source instances of the job read.
   *
   * @param sources source instances registered (0: the job has no source that reports)
   * @param unbounded whether one of them is unbounded: then the job has no size, and bytes are not
   *     known (unbounded readers do not tell them)
   * @param elements elements read
   * @param bytesRead bytes read, {@link SourceProgress#UNKNOWN} when an instance cannot tell
   * @param estimatedBytes the sum of the instances' estimates, {@link SourceProgress#UNKNOWN} when
   *     an instance has none (yet)
   */
  public record Totals(
      int sources, boolean unbounded, long elements, long bytesRead, long estimatedBytes) {

    static Totals of(List<SourceProgress.Sample> samples) {
      boolean unbounded = false;
      long elements = 0;
      long bytes = 0;
      long estimated = 0;
      for (SourceProgress.Sample s : samples) {
        unbounded |= !s.bounded();
        elements += s.elements();
        bytes = sumOfKnown(bytes, s.bytesRead());
        estimated = sumOfKnown(estimated, s.estimatedBytes());
      }
      if (unbounded) {
        bytes = SourceProgress.UNKNOWN;
        estimated = SourceProgress.UNKNOWN;
      }
      return new Totals(samples.size(), unbounded, elements, bytes, estimated);
    }

    private static long sumOfKnown(long sum, long figure) {
      return sum < 0 || figure < 0 ? SourceProgress.UNKNOWN : sum + figure;
    }

    /**
     * The share of the estimate read, 0 to 100 rounded down, or -1 when there is no size to measure
     * against.
     */
    public int percent() {
      if (unbounded || bytesRead < 0 || estimatedBytes <= 0) {
        return -1;
      }
      // Estimates are estimates: a source may read past its own.
      return (int) Math.min(100, bytesRead * 100 / estimatedBytes);
    }
  }
}
