package org.priodp.conformance.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for test vectors (the library modules take no JSON
 * dependency). Objects become {@code LinkedHashMap<String, Object>} in document order, arrays
 * {@code List<Object>}, strings {@code String}, integers {@code BigInteger}, other numbers
 * {@code BigDecimal}, and true/false/null {@code Boolean}/{@code null}.
 */
public final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /**
   * Parses one JSON document.
   *
   * @throws IllegalArgumentException on malformed input, naming the character offset
   */
  public static Object parse(String text) {
    Json p = new Json(text);
    p.skipSpace();
    Object v = p.value();
    p.skipSpace();
    if (p.i != p.s.length()) {
      throw p.error("trailing characters");
    }
    return v;
  }

  private Object value() {
    if (i >= s.length()) {
      throw error("unexpected end of input");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++; // {
    skipSpace();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (m.put(key, value()) != null) {
        throw error("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (peek() == ',') {
        i++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> a = new ArrayList<>();
    i++; // [
    skipSpace();
    if (peek() == ']') {
      i++;
      return a;
    }
    while (true) {
      skipSpace();
      a.add(value());
      skipSpace();
      if (peek() == ',') {
        i++;
      } else {
        expect(']');
        return a;
      }
    }
  }

  private String string() {
    i++; // opening quote
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error("unterminated escape");
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (i + 4 > s.length()) {
            throw error("short \\u escape");
          }
          sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    String t = s.substring(start, i);
    try {
      return t.matches("-?\\d+") ? new BigInteger(t) : new BigDecimal(t);
    } catch (NumberFormatException ex) {
      throw error("bad number " + t);
    }
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("expected " + word);
    }
    i += word.length();
    return v;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    i++;
  }

  private char peek() {
    return i < s.length() ? s.charAt(i) : '\0';
  }

  private void skipSpace() {
    while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }
}
