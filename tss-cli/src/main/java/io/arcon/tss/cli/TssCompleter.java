package io.arcon.tss.cli;

import io.arcon.tss.lang.grammar.TssLexer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Completes keywords of the TSS language and the names the control plane knows: after {@code
 * DESCRIBE APP} app names, after {@code EXTRACT}, {@code FROM} or {@code JOIN} {@code app.state}
 * references, after {@code TSS} or {@code QUERY} TSS names; elsewhere all of them.
 */
final class TssCompleter implements Completer {
  static final List<String> SHELL_COMMANDS = List.of("exit", "quit", "help");

  private final CatalogCache catalog;

  TssCompleter(CatalogCache catalog) {
    this.catalog = catalog;
  }

  /** Every keyword of the grammar, from the generated lexer so the two can never disagree. */
  static List<String> keywords() {
    List<String> keywords = new ArrayList<>();
    for (int type = TssLexer.SHOW; type <= TssLexer.LATEST; type++) {
      keywords.add(TssLexer.VOCABULARY.getSymbolicName(type));
    }
    return keywords;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    String previous =
        line.wordIndex() > 0 ? line.words().get(line.wordIndex() - 1).toUpperCase(Locale.ROOT) : "";
    CatalogCache.Names names = catalog.names();
    switch (previous) {
      case "APP" -> add(candidates, names.apps(), "apps");
      case "EXTRACT", "FROM", "JOIN" -> add(candidates, names.stateRefs(), "states");
      case "TSS", "QUERY" -> add(candidates, names.tss(), "tss");
      default -> {
        add(candidates, keywords(), "keywords");
        if (line.wordIndex() == 0) {
          add(candidates, SHELL_COMMANDS, "commands");
        }
        add(candidates, names.apps(), "apps");
        add(candidates, names.stateRefs(), "states");
        add(candidates, names.tss(), "tss");
      }
    }
  }

  private static void add(List<Candidate> candidates, List<String> values, String group) {
    for (String value : values) {
      candidates.add(new Candidate(value, value, group, null, null, null, true));
    }
  }
}
