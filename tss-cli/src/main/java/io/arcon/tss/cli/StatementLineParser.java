package io.arcon.tss.cli;

import java.util.Locale;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;

/**
 * Makes JLine keep reading lines until the statement ends with {@code ;} (outside quotes and
 * comments), so a statement may span lines and is one history entry. Shell commands ({@code exit},
 * {@code quit}, {@code help}) need no {@code ;}. Commas and parentheses also separate words, so
 * {@code EXTRACT a.x,a.y} completes the name after the comma.
 */
final class StatementLineParser extends DefaultParser {
  StatementLineParser() {
    // Backslashes are literal in TSS and SQL; JLine's default escaping would eat them.
    escapeChars(new char[0]);
  }

  @Override
  public ParsedLine parse(String line, int cursor, ParseContext context) {
    if (context == ParseContext.ACCEPT_LINE && needsMore(line)) {
      throw new EOFError(-1, cursor, "the statement continues until ';'", ";");
    }
    return super.parse(line, cursor, context);
  }

  static boolean needsMore(String buffer) {
    if (buffer.isBlank() || isShellCommand(buffer)) {
      return false;
    }
    return !StatementSplitter.split(buffer).complete();
  }

  static boolean isShellCommand(String buffer) {
    String word = buffer.strip().toLowerCase(Locale.ROOT);
    if (word.endsWith(";")) {
      word = word.substring(0, word.length() - 1).strip();
    }
    return TssCompleter.SHELL_COMMANDS.contains(word);
  }

  @Override
  public boolean isDelimiterChar(CharSequence buffer, int pos) {
    char c = buffer.charAt(pos);
    return c == ',' || c == ';' || c == '(' || c == ')' || super.isDelimiterChar(buffer, pos);
  }
}
