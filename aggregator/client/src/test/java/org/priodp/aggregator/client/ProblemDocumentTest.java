package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The string members of an RFC 9457 problem document, read without a JSON library. */
class ProblemDocumentTest {

  @Test
  void readsTopLevelStringsAndSkipsOtherValues() {
    ProblemDocument d = ProblemDocument.parse("{\"type\":\"urn:ietf:params:ppm:dap:error:"
        + "invalidBatchSize\",\"title\":\"t\",\"status\":400,\"ok\":true,\"none\":null,"
        + "\"n\":-1.5e3,\"nested\":{\"type\":\"inner\",\"a\":[1,{\"b\":\"c\"},[]]},"
        + "\"detail\":\"line\\nquote\\\" slash\\/ \\u00e9\"}").orElseThrow();
    assertEquals(Optional.of("urn:ietf:params:ppm:dap:error:invalidBatchSize"), d.string("type"));
    assertEquals(Optional.of("line\nquote\" slash/ \u00e9"), d.string("detail"));
    assertEquals(Optional.empty(), d.string("status"), "a number is not a string member");
    assertEquals(Optional.empty(), d.string("b"), "nested members are not top-level");
    assertEquals(Optional.of("t"), ProblemDocument.parse(" \n{ \"title\" : \"t\" } ").orElseThrow()
        .string("title"));
    assertTrue(ProblemDocument.parse("{}").isPresent());
  }

  @Test
  void anythingButOneWellFormedObjectYieldsNothing() {
    for (String bad : List.of("", "[]", "\"type\"", "{\"type\":\"x\"", "{\"type\":\"x\"}}",
        "{\"type\":x}", "{\"type\":\"x\",}", "{type:\"x\"}", "{\"a\":01}", "{\"a\":\"\\q\"}",
        "{\"a\":\"\u0001\"}", "{\"a\":\"\\u12\"}", "{\"a\":[1,]}", "<html>502</html>",
        "{\"a\":" + "[".repeat(200) + "]".repeat(200) + "}")) {
      assertEquals(Optional.empty(), ProblemDocument.parse(bad), bad);
    }
  }
}
