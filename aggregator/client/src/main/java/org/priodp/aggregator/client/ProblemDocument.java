package org.priodp.aggregator.client;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The string members of a problem document (RFC 9457 "Problem Details for HTTP APIs"), read from
 * an error response's JSON body (RFC 8259) without a JSON library, so the Client artifact needs
 * none: the top-level object's string members are kept, every other value is parsed and skipped.
 * A body that is not one well-formed JSON object yields nothing.
 */
final class ProblemDocument {
  private static final int MAX_DEPTH = 64;

  private final Map<String, String> strings;

  private ProblemDocument(Map<String, String> strings) {
    this.strings = strings;
  }

  /** Parses a body; empty if it is not a well-formed JSON object. */
  static Optional<ProblemDocument> parse(String body) {
    Parser p = new Parser(body);
    try {
      p.skipWhitespace();
      Map<String, String> strings = new HashMap<>();
      p.object(0, strings);
      p.skipWhitespace();
      if (!p.atEnd()) {
        return Optional.empty();
      }
      return Optional.of(new ProblemDocument(strings));
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  /** Returns a top-level member's value if it is a string. */
  Optional<String> string(String member) {
    return Optional.ofNullable(strings.get(member));
  }

  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    boolean atEnd() {
      return i == s.length();
    }

    void skipWhitespace() {
      while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
    }

    private void expect(char c) {
      if (s.charAt(i) != c) {
        throw new IllegalArgumentException("expected " + c);
      }
      i++;
    }

    /** Parses an object; with {@code top} non-null, keeps its string members there. */
    void object(int depth, Map<String, String> top) {
      if (depth > MAX_DEPTH) {
        throw new IllegalArgumentException("nested too deeply");
      }
      expect('{');
      skipWhitespace();
      if (s.charAt(i) == '}') {
        i++;
        return;
      }
      while (true) {
        skipWhitespace();
        String name = string();
        skipWhitespace();
        expect(':');
        skipWhitespace();
        if (s.charAt(i) == '"') {
          String v = string();
          if (top != null) {
            top.put(name, v);
          }
        } else {
          value(depth + 1);
        }
        skipWhitespace();
        if (s.charAt(i) == ',') {
          i++;
          continue;
        }
        expect('}');
        return;
      }
    }

    private void array(int depth) {
      if (depth > MAX_DEPTH) {
        throw new IllegalArgumentException("nested too deeply");
      }
      expect('[');
      skipWhitespace();
      if (s.charAt(i) == ']') {
        i++;
        return;
      }
      while (true) {
        skipWhitespace();
        value(depth + 1);
        skipWhitespace();
        if (s.charAt(i) == ',') {
          i++;
          continue;
        }
        expect(']');
        return;
      }
    }

    private void value(int depth) {
      char c = s.charAt(i);
      if (c == '{') {
        object(depth, null);
      } else if (c == '[') {
        array(depth);
      } else if (c == '"') {
        string();
      } else if (s.startsWith("true", i)) {
        i += 4;
      } else if (s.startsWith("false", i)) {
        i += 5;
      } else if (s.startsWith("null", i)) {
        i += 4;
      } else {
        number();
      }
    }

    private void number() {
      int start = i;
      if (s.charAt(i) == '-') {
        i++;
      }
      while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      String n = s.substring(start, i);
      if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
        throw new IllegalArgumentException("not a number: " + n);
      }
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c < 0x20) {
          throw new IllegalArgumentException("control character in a string");
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> throw new IllegalArgumentException("bad escape \\" + e);
        }
      }
    }
  }
}
