package org.priodp.aggregator.cli;

import java.math.BigInteger;
import java.util.List;

/** A minimal JSON writer for the commands' small outputs: keys in insertion order, strings escaped. */
final class Json {
  private final StringBuilder sb = new StringBuilder();
  private final int indent;
  private boolean first = true;

  private Json(int indent) {
    this.indent = indent;
    sb.append("{");
  }

  static Json object() {
    return new Json(1);
  }

  private Json key(String k) {
    sb.append(first ? "" : ",").append('\n').append("  ".repeat(indent));
    first = false;
    quote(sb, k);
    sb.append(": ");
    return this;
  }

  Json put(String k, String v) {
    key(k);
    if (v == null) {
      sb.append("null");
    } else {
      quote(sb, v);
    }
    return this;
  }

  Json put(String k, long v) {
    key(k).sb.append(v);
    return this;
  }

  Json put(String k, double v) {
    key(k).sb.append(Double.isFinite(v) ? Double.toString(v) : "null");
    return this;
  }

  Json put(String k, BigInteger v) {
    key(k).sb.append(v);
    return this;
  }

  Json putNumbers(String k, List<BigInteger> v) {
    key(k).sb.append('[');
    for (int i = 0; i < v.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(v.get(i));
    }
    sb.append(']');
    return this;
  }

  Json putPairs(String k, List<BigInteger> a, List<BigInteger> b) {
    key(k).sb.append('[');
    for (int i = 0; i < a.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append('[').append(a.get(i)).append(", ").append(b.get(i)).append(']');
    }
    sb.append(']');
    return this;
  }

  /** Puts a number array (non-finite values become null). */
  Json putDoubles(String k, double[] v) {
    key(k).sb.append('[');
    for (int i = 0; i < v.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(Double.isFinite(v[i]) ? Double.toString(v[i]) : "null");
    }
    sb.append(']');
    return this;
  }

  /** Puts a matrix of integers, one row per line. */
  Json putMatrix(String k, long[][] rows) {
    key(k).sb.append('[');
    for (int i = 0; i < rows.length; i++) {
      sb.append(i == 0 ? "" : ",").append('\n').append("  ".repeat(indent + 1)).append('[');
      for (int j = 0; j < rows[i].length; j++) {
        sb.append(j == 0 ? "" : ", ").append(rows[i][j]);
      }
      sb.append(']');
    }
    sb.append('\n').append("  ".repeat(indent)).append(']');
    return this;
  }

  Json put(String k, Json nested) {
    key(k).sb.append(nested.toString());
    return this;
  }

  Json nested() {
    return new Json(indent + 1);
  }

  private String toString(int at) {
    return sb + "\n" + "  ".repeat(at - 1) + "}";
  }

  @Override
  public String toString() {
    return toString(indent);
  }

  static void quote(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
