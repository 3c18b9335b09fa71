package org.priodp.aggregator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;

/**
 * The commands' JSON output, built on a Jackson tree: keys in insertion order, two-space
 * indentation, integers exact (BigInteger), non-finite doubles as null.
 */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** Objects one member per line, arrays on one line: {@code "key": [1, 2]}. */
  private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter(
      Separators.createDefaultInstance()
          .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
          .withArrayValueSpacing(Separators.Spacing.AFTER))
      .withObjectIndenter(new DefaultIndenter("  ", "\n"))
      .withArrayIndenter(new DefaultPrettyPrinter.NopIndenter());

  private final ObjectNode node;

  private Json(ObjectNode node) {
    this.node = node;
  }

  static Json object() {
    return new Json(JsonNodeFactory.instance.objectNode());
  }

  Json put(String k, String v) {
    node.put(k, v);
    return this;
  }

  Json put(String k, boolean v) {
    node.put(k, v);
    return this;
  }

  Json put(String k, long v) {
    node.put(k, v);
    return this;
  }

  Json put(String k, double v) {
    if (Double.isFinite(v)) {
      node.put(k, v);
    } else {
      node.putNull(k);
    }
    return this;
  }

  Json put(String k, BigInteger v) {
    node.put(k, v);
    return this;
  }

  Json putNumbers(String k, List<BigInteger> v) {
    ArrayNode a = node.putArray(k);
    v.forEach(a::add);
    return this;
  }

  Json putPairs(String k, List<BigInteger> a, List<BigInteger> b) {
    ArrayNode rows = node.putArray(k);
    for (int i = 0; i < a.size(); i++) {
      rows.addArray().add(a.get(i)).add(b.get(i));
    }
    return this;
  }

  /** Puts a number array (non-finite values become null). */
  Json putDoubles(String k, double[] v) {
    ArrayNode a = node.putArray(k);
    for (double d : v) {
      if (Double.isFinite(d)) {
        a.add(d);
      } else {
        a.addNull();
      }
    }
    return this;
  }

  /** Puts a matrix of integers. */
  Json putMatrix(String k, long[][] rows) {
    ArrayNode m = node.putArray(k);
    for (long[] row : rows) {
      ArrayNode r = m.addArray();
      for (long x : row) {
        r.add(x);
      }
    }
    return this;
  }

  Json put(String k, Json nested) {
    node.set(k, nested.node);
    return this;
  }

  Json nested() {
    return object();
  }

  @Override
  public String toString() {
    try {
      return MAPPER.writer(PRETTY).writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
