package io.arcon.runner.state;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.options.TransformGlob;
import io.arcon.state.StateBackends;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the state engine of every stateful transform from {@code --stateBackend} (the default)
 * and {@code --stateBackends} (per-transform rules), refusing bad values before the job starts.
 *
 * <p>A rule is {@code <pattern>=<engine>}; rules are separated by commas, so a pattern cannot
 * contain a comma. A pattern is a glob: {@code *} matches any characters (including {@code /}),
 * {@code ?} matches one character, everything else matches itself. It selects a stateful transform
 * when it matches the transform's whole full name or the whole full name of an enclosing composite
 * (a prefix of the full name ending before a {@code /}), so {@code CountPerUser=rocksdb} moves all
 * the state inside the composite {@code CountPerUser}. The first matching rule wins, so a rule that
 * an earlier one shadows (same pattern, or after a {@code *} rule) is refused.
 *
 * <p>Translation decides which steps are stateful: it asks {@link #engineFor} for the engine of
 * each stateful step it creates, then hands the full list to {@link #checkRulesAndLog}, all before
 * any node starts.
 */
public final class StateBackendSelection {
  private static final Logger LOG = LoggerFactory.getLogger(StateBackendSelection.class);

  private final String defaultEngine;
  private final List<Rule> rules;
  private final String rulesText;

  private StateBackendSelection(String defaultEngine, List<Rule> rules, String rulesText) {
    this.defaultEngine = defaultEngine;
    this.rules = rules;
    this.rulesText = rulesText;
  }

  /** One {@code --stateBackends} rule. */
  record Rule(String pattern, TransformGlob glob, String engine) {
    boolean matches(String fullName) {
      return glob.matches(fullName);
    }

    /** The rule as written, without surrounding blanks: {@code <pattern>=<engine>}. */
    String text() {
      return pattern + "=" + engine;
    }
  }

  /**
   * The selection {@code options} ask for.
   *
   * @throws IllegalArgumentException for an unknown engine or a malformed rule
   */
  public static StateBackendSelection of(ArconPipelineOptions options) {
    String defaultEngine = requireEngine(options.getStateBackend(), "--stateBackend");
    List<Rule> rules = parseRules(options.getStateBackends());
    return new StateBackendSelection(defaultEngine, rules, options.getStateBackends());
  }

  /**
   * The engine of the stateful transform {@code fullName}: the first matching rule's, else the
   * default.
   */
  public String engineFor(String fullName) {
    Rule chosen = ruleFor(fullName);
    return chosen == null ? defaultEngine : chosen.engine();
  }

  /**
   * Refuses a rule that selects none of the job's stateful transforms, or that earlier rules take
   * every one of its transforms from, then logs one line per stateful transform with its engine and
   * why.
   *
   * @param statefulNames the full names of the job's stateful transforms, in topological order
   * @throws IllegalArgumentException naming the rule and listing the stateful transforms
   */
  public void checkRulesAndLog(List<String> statefulNames) {
    for (Rule rule : rules) {
      if (statefulNames.stream().noneMatch(rule::matches)) {
        throw new IllegalArgumentException(
            "--stateBackends pattern '"
                + rule.pattern()
                + "' (in '"
                + rulesText
                + "') matches no stateful transform. Patterns are globs matched against a"
                + " transform's full name or an enclosing composite's name; the stateful"
                + " transforms are: "
                + (statefulNames.isEmpty() ? "(none)" : String.join(", ", statefulNames)));
      }
    }
    for (Rule rule : rules) {
      List<String> matched = statefulNames.stream().filter(rule::matches).toList();
      if (matched.stream().noneMatch(name -> ruleFor(name) == rule)) {
        // Every transform it matches is taken by an earlier rule (the first match wins).
        List<String> takenBy =
            matched.stream().map(name -> name + " by '" + ruleFor(name).text() + "'").toList();
        throw new IllegalArgumentException(
            "--stateBackends rule '"
                + rule.text()
                + "' never applies: earlier rules take every stateful transform it matches ("
                + String.join(", ", takenBy)
                + "), and the first matching rule wins (in '"
                + rulesText
                + "'). Put it before them, or drop it.");
      }
    }
    for (String name : statefulNames) {
      Rule chosen = ruleFor(name);
      LOG.info(
          "State backend of '{}': {} ({})",
          name,
          engineFor(name),
          chosen == null
              ? "--stateBackend default"
              : "--stateBackends rule '" + chosen.pattern() + "'");
    }
  }

  private Rule ruleFor(String fullName) {
    return rules.stream().filter(r -> r.matches(fullName)).findFirst().orElse(null);
  }

  /** Parses {@code --stateBackends}; null or blank means no rules. */
  static List<Rule> parseRules(String text) {
    List<Rule> rules = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return rules;
    }
    for (String entry : text.split(",")) {
      String trimmed = entry.trim();
      int eq = trimmed.lastIndexOf('=');
      if (eq <= 0 || eq == trimmed.length() - 1) {
        throw new IllegalArgumentException(
            "--stateBackends entry '"
                + entry
                + "' is not <pattern>=<engine>. Example: --stateBackends=CountPerUser=rocksdb,"
                + "*/Dedup*=lmdb (valid engines: "
                + String.join(", ", StateBackends.ENGINES)
                + ")");
      }
      String pattern = trimmed.substring(0, eq).trim();
      String engine =
          requireEngine(trimmed.substring(eq + 1).trim(), "--stateBackends rule '" + trimmed + "'");
      Rule rule = new Rule(pattern, TransformGlob.of(pattern), engine);
      refuseShadowed(rule, rules, text);
      rules.add(rule);
    }
    return rules;
  }

  /**
   * Refuses {@code rule} when an earlier rule matches everything it matches, so it could never
   * apply (the first matching rule wins): one with the same pattern, or a match-all pattern ({@code
   * *}, {@code **}, ...). Other overlaps (e.g. {@code Count*} before {@code CountPerUser}) are not
   * looked for.
   */
  private static void refuseShadowed(Rule rule, List<Rule> earlier, String text) {
    for (Rule before : earlier) {
      if (before.pattern().equals(rule.pattern())) {
        throw new IllegalArgumentException(
            "--stateBackends rule '"
                + rule.text()
                + "' can never apply: the earlier rule '"
                + before.text()
                + "' has the same pattern and the first matching rule wins (in '"
                + text
                + "'). Keep one rule per pattern.");
      }
      if (matchesEverything(before.pattern())) {
        throw new IllegalArgumentException(
            "--stateBackends rule '"
                + rule.text()
                + "' can never apply: the earlier rule '"
                + before.text()
                + "' matches every transform and the first matching rule wins (in '"
                + text
                + "'). Put '"
                + rule.text()
                + "' before '"
                + before.text()
                + "', or drop '"
                + before.text()
                + "' and give its engine as the default with --stateBackend="
                + before.engine()
                + ".");
      }
    }
  }

  /** Whether a glob matches every full name: it is made of {@code *} alone. */
  private static boolean matchesEverything(String pattern) {
    return !pattern.isEmpty() && pattern.chars().allMatch(c -> c == '*');
  }

  private static String requireEngine(String engine, String where) {
    if (engine == null || !StateBackends.ENGINES.contains(engine)) {
      throw new IllegalArgumentException(
          "Unknown state backend '"
              + engine
              + "' in "
              + where
              + ". Valid engines: "
              + String.join(", ", StateBackends.ENGINES));
    }
    return engine;
  }
}
