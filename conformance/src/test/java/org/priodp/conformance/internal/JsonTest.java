package org.priodp.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Jackson-backed vector reader on the shapes test vectors use, and on malformed input. */
class JsonTest {

  @Test
  void parsesNestedValues() {
    Object v = Json.parse(
        " {\"a\": \"0a1b\", \"n\": 40, \"neg\": -7, \"x\": 1.5e3, \"l\": [true, false, null, []],"
            + " \"o\": {}, \"s\": \"q\\\"\\\\\\n\\u0041\"} ");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("a", "0a1b");
    expected.put("n", BigInteger.valueOf(40));
    expected.put("neg", BigInteger.valueOf(-7));
    expected.put("x", new BigDecimal("1.5e3"));
    expected.put("l", Arrays.asList(true, false, null, List.of()));
    expected.put("o", Map.of());
    expected.put("s", "q\"\\\nA");
    assertEquals(expected, v);
    assertEquals(List.of("a", "n", "neg", "x", "l", "o", "s"),
        List.copyOf(((Map<?, ?>) v).keySet()));
  }

  @Test
  void rejectsMalformedInput() {
    for (String bad : new String[] {"", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,\"a\":2}", "tru",
        "\"open", "1 2", "{\"a\":01x}"}) {
      assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
    }
  }
}
