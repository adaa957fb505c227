package io.arcon.tss.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recursive-descent reader of the type notation of {@link FieldType#toString()}.
 *
 * <pre>
 * type  := STRING | INT32 | INT64 | FLOAT | DOUBLE | BOOLEAN | BYTES | TIMESTAMP | OPAQUE
 *        | LIST '&lt;' type '&gt;' | MAP '&lt;' type ',' type '&gt;'
 *        | ROW '&lt;' field (',' field)* '&gt;'
 * field := name type [NOT NULL]
 * name  := identifier | '`' any text, with `` for a back-quote '`'
 * </pre>
 */
final class FieldTypeParser {
  private final String text;
  private int pos;

  FieldTypeParser(String text) {
    if (text == null) {
      throw new IllegalArgumentException("Type text is null; give a type such as INT64");
    }
    this.text = text;
  }

  FieldType parseWhole() {
    FieldType type = parseType();
    skipSpaces();
    if (pos != text.length()) {
      throw error("end of type");
    }
    return type;
  }

  private FieldType parseType() {
    String word = readWord("a type name");
    switch (word.toUpperCase(Locale.ROOT)) {
      case "OPAQUE":
        return FieldType.OPAQUE;
      case "LIST":
        {
          expect('<');
          FieldType element = parseType();
          expect('>');
          return new ListType(element);
        }
      case "MAP":
        {
          expect('<');
          FieldType key = parseType();
          expect(',');
          FieldType value = parseType();
          expect('>');
          return new MapType(key, value);
        }
      case "ROW":
        {
          expect('<');
          List<Field> fields = new ArrayList<>();
          do {
            fields.add(parseField());
          } while (tryConsume(','));
          expect('>');
          return new RowType(fields);
        }
      default:
        for (PrimitiveType p : PrimitiveType.values()) {
          if (p.name().equalsIgnoreCase(word)) {
            return p;
          }
        }
        pos -= word.length();
        throw error(
            "a type (STRING, INT32, INT64, FLOAT, DOUBLE, BOOLEAN, BYTES, TIMESTAMP, OPAQUE,"
                + " LIST<..>, MAP<..,..>, ROW<..>)");
    }
  }

  private Field parseField() {
    skipSpaces();
    String name;
    if (pos < text.length() && text.charAt(pos) == '`') {
      name = readQuotedName();
    } else {
      name = readWord("a field name");
    }
    FieldType type = parseType();
    int mark = pos;
    skipSpaces();
    if (peekWord().equalsIgnoreCase("NOT")) {
      readWord("NOT");
      String next = readWord("NULL");
      if (!next.equalsIgnoreCase("NULL")) {
        pos -= next.length();
        throw error("NULL after NOT");
      }
      return new Field(name, type, false);
    }
    pos = mark;
    return new Field(name, type, true);
  }

  private String readQuotedName() {
    int start = pos;
    pos++; // opening back-quote
    StringBuilder sb = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '`') {
        if (pos < text.length() && text.charAt(pos) == '`') {
          sb.append('`');
          pos++;
        } else {
          return sb.toString();
        }
      } else {
        sb.append(c);
      }
    }
    pos = start;
    throw error("a closing back-quote for the field name");
  }

  private String peekWord() {
    int p = pos;
    while (p < text.length() && isWordChar(text.charAt(p))) {
      p++;
    }
    return text.substring(pos, p);
  }

  private String readWord(String what) {
    skipSpaces();
    String word = peekWord();
    if (word.isEmpty()) {
      throw error(what);
    }
    pos += word.length();
    return word;
  }

  private void expect(char c) {
    if (!tryConsume(c)) {
      throw error("'" + c + "'");
    }
  }

  private boolean tryConsume(char c) {
    skipSpaces();
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String expected) {
    String found =
        pos < text.length()
            ? "'" + text.substring(pos, Math.min(text.length(), pos + 12)) + "'"
            : "end of text";
    return new IllegalArgumentException(
        "Invalid type '"
            + text
            + "' at position "
            + (pos + 1)
            + ": expected "
            + expected
            + " but found "
            + found);
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** Renders a field name so {@link #parseField()} reads it back unchanged. */
  static String quoteName(String name) {
    boolean plain =
        !name.isEmpty() && (Character.isLetter(name.charAt(0)) || name.charAt(0) == '_');
    for (int i = 0; plain && i < name.length(); i++) {
      plain = name.charAt(i) < 128 && isWordChar(name.charAt(i));
    }
    return plain ? name : "`" + name.replace("`", "``") + "`";
  }
}
