package org.priodp.conformance.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Reads test-vector JSON with Jackson into plain Java values: objects as insertion-ordered
 * {@code Map<String, Object>}, arrays as {@code List<Object>}, integers as {@code BigInteger}
 * (vector values exceed 64 bits), other numbers as {@code BigDecimal}, strings, booleans and null.
 * Duplicate keys and trailing content are refused.
 */
public final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .build();

  private Json() {
  }

  /**
   * Parses one JSON document.
   *
   * @throws IllegalArgumentException on malformed input, naming the line and column
   */
  public static Object parse(String text) {
    try {
      Object v = MAPPER.readValue(text, Object.class);
      if (v == null && text.isBlank()) {
        throw new IllegalArgumentException("not JSON: empty input");
      }
      return v;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON (line " + e.getLocation().getLineNr()
          + ", column " + e.getLocation().getColumnNr() + "): " + e.getOriginalMessage(), e);
    }
  }
}
