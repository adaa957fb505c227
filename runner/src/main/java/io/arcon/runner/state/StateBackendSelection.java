package io.arcon.runner.state;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.state.StateBackends;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
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
 * the state inside the composite {@code CountPerUser}. The first matching rule wins.
 */
public final class StateBackendSelection {
  private static final Logger LOG = LoggerFactory.getLogger(StateBackendSelection.class);

  private StateBackendSelection() {}

  /** One {@code --stateBackends} rule. */
  record Rule(String pattern, Pattern glob, String engine) {
    boolean matches(String fullName) {
      if (glob.matcher(fullName).matches()) {
        return true;
      }
      for (int i = fullName.indexOf('/'); i >= 0; i = fullName.indexOf('/', i + 1)) {
        if (glob.matcher(fullName.substring(0, i)).matches()) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The engine of every stateful transform of {@code pipeline} (with Arcon's overrides applied),
   * keyed by full name; logs one line per transform.
   *
   * @throws IllegalArgumentException for an unknown engine, a malformed rule or a rule that matches
   *     no stateful transform
   */
  public static Map<String, String> select(Pipeline pipeline, ArconPipelineOptions options) {
    String defaultEngine = requireEngine(options.getStateBackend(), "--stateBackend");
    List<Rule> rules = parseRules(options.getStateBackends());
    Map<String, String> engines =
        assign(StatefulTransforms.of(pipeline), defaultEngine, rules, options.getStateBackends());
    return engines;
  }

  static Map<String, String> assign(
      List<String> statefulNames, String defaultEngine, List<Rule> rules, String rulesText) {
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
    Map<String, String> engines = new LinkedHashMap<>();
    for (String name : statefulNames) {
      Rule chosen = rules.stream().filter(r -> r.matches(name)).findFirst().orElse(null);
      String engine = chosen == null ? defaultEngine : chosen.engine();
      engines.put(name, engine);
      LOG.info(
          "State backend of '{}': {} ({})",
          name,
          engine,
          chosen == null
              ? "--stateBackend default"
              : "--stateBackends rule '" + chosen.pattern() + "'");
    }
    return engines;
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
      rules.add(new Rule(pattern, globToRegex(pattern), engine));
    }
    return rules;
  }

  static Pattern globToRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*' || c == '?') {
        if (literal.length() > 0) {
          regex.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        regex.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
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
