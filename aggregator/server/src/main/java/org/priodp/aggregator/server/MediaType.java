package org.priodp.aggregator.server;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed media type (RFC 9110 section 8.3.1): {@code type "/" subtype *( OWS ";" OWS [ name
 * "=" value ] )}. Type, subtype and parameter names are tokens compared case-insensitively (kept
 * in lower case); a value is a token or a quoted-string whose backslash escapes are removed, and
 * is kept as sent (values are compared exactly). Empty parameters ({@code ";;"}) are allowed as
 * the grammar does. Two leniencies beyond RFC 9110: whitespace around "=" is accepted, and so is
 * whitespace before the first ";" (both are common in hand-written clients). A repeated parameter
 * name is an error.
 */
record MediaType(String type, String subtype, Map<String, String> parameters) {
  MediaType {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(subtype, "subtype");
    parameters = Map.copyOf(parameters);
  }

  /** Returns true for this type and subtype (compared case-insensitively). */
  boolean is(String type, String subtype) {
    return this.type.equals(type.toLowerCase(Locale.ROOT))
        && this.subtype.equals(subtype.toLowerCase(Locale.ROOT));
  }

  /** Returns the value of a parameter (name compared case-insensitively), or null. */
  String parameter(String name) {
    return parameters.get(name.toLowerCase(Locale.ROOT));
  }

  /**
   * Parses a Content-Type field value.
   *
   * @throws IllegalArgumentException naming what is malformed and where
   */
  static MediaType parse(String value) {
    if (value == null) {
      throw new IllegalArgumentException("no media type");
    }
    Cursor c = new Cursor(value);
    c.skipWhitespace();
    String type = c.token("type");
    c.expect('/');
    String subtype = c.token("subtype");
    Map<String, String> params = new LinkedHashMap<>();
    while (true) {
      c.skipWhitespace();
      if (c.atEnd()) {
        break;
      }
      c.expect(';');
      c.skipWhitespace();
      if (c.atEnd() || c.peek() == ';') {
        continue; // an empty parameter
      }
      String name = c.token("parameter name").toLowerCase(Locale.ROOT);
      c.skipWhitespace();
      c.expect('=');
      c.skipWhitespace();
      String v = !c.atEnd() && c.peek() == '"' ? c.quotedString() : c.token("value of " + name);
      if (params.putIfAbsent(name, v) != null) {
        throw new IllegalArgumentException("parameter " + name + " is repeated");
      }
    }
    return new MediaType(type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT), params);
  }

  /** RFC 9110 tchar. */
  static boolean isTokenChar(char ch) {
    if (ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
      return true;
    }
    return "!#$%&'*+-.^_`|~".indexOf(ch) >= 0;
  }

  private static final class Cursor {
    private final String s;
    private int i;

    Cursor(String s) {
      this.s = s;
    }

    boolean atEnd() {
      return i >= s.length();
    }

    char peek() {
      return s.charAt(i);
    }

    void skipWhitespace() {
      while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
        i++;
      }
    }

    void expect(char ch) {
      if (atEnd()) {
        throw new IllegalArgumentException("expected '" + ch + "' at the end");
      }
      if (peek() != ch) {
        throw new IllegalArgumentException("expected '" + ch + "' at offset " + i);
      }
      i++;
    }

    String token(String what) {
      int start = i;
      while (!atEnd() && isTokenChar(peek())) {
        i++;
      }
      if (i == start) {
        throw new IllegalArgumentException("expected a token (" + what + ") at offset " + start);
      }
      return s.substring(start, i);
    }

    /** quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE. */
    String quotedString() {
      int start = i;
      expect('"');
      StringBuilder out = new StringBuilder();
      while (true) {
        if (atEnd()) {
          throw new IllegalArgumentException("unterminated quoted-string at offset " + start);
        }
        char ch = s.charAt(i++);
        if (ch == '"') {
          return out.toString();
        }
        if (ch == '\\') {
          if (atEnd()) {
            throw new IllegalArgumentException("unterminated quoted-pair at offset " + (i - 1));
          }
          char escaped = s.charAt(i++);
          if (!(escaped == '\t' || escaped >= 0x20 && escaped != 0x7f && escaped <= 0xff)) {
            throw new IllegalArgumentException("invalid quoted-pair at offset " + (i - 2));
          }
          out.append(escaped);
        } else if (ch == '\t' || ch >= 0x20 && ch != 0x7f && ch <= 0xff) {
          out.append(ch);
        } else {
          throw new IllegalArgumentException("invalid character in quoted-string at offset "
              + (i - 1));
        }
      }
    }
  }
}
