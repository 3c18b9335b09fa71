package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MediaTypeTest {

  @Test
  void parsesTypeSubtypeAndParameters() {
    MediaType m = MediaType.parse("Application/PPM-DAP ; Message = \"a\\\"b\\\\c\" ;version=18");
    assertEquals("application", m.type());
    assertEquals("ppm-dap", m.subtype());
    assertEquals(Map.of("message", "a\"b\\c", "version", "18"), m.parameters());
    assertEquals("a\"b\\c", m.parameter("MESSAGE"));
    assertNull(m.parameter("charset"));
    assertTrue(m.is("APPLICATION", "ppm-dap"));
  }

  /** Spellings RFC 9110 allows (and the two documented leniencies) name the same media type. */
  @ParameterizedTest
  @ValueSource(strings = {
      "application/ppm-dap;message=aggregate-share-req",
      "APPLICATION/PPM-DAP;MESSAGE=aggregate-share-req",
      "application/ppm-dap; message=aggregate-share-req",
      "application/ppm-dap\t;\tmessage=aggregate-share-req\t",
      "application/ppm-dap ; message = aggregate-share-req",
      "application/ppm-dap;message=\"aggregate-share-req\"",
      "application/ppm-dap;message=\"aggregate\\-share\\-req\"",
      "application/ppm-dap;version=18;message=aggregate-share-req",
      "application/ppm-dap;message=aggregate-share-req;x-unknown=\"any thing\"",
      "application/ppm-dap;;message=aggregate-share-req;",
      " application/ppm-dap;message=aggregate-share-req"
  })
  void acceptsEveryValidSpelling(String contentType) {
    assertDoesNotThrow(() -> AggregateShareHandler.checkAggregateShareReqType(contentType, null));
  }

  /** Wrong types, wrong or missing message values and malformed values are all 415. */
  @ParameterizedTest
  @ValueSource(strings = {
      "application/ppm-dap;message=aggregate-share",
      "application/ppm-dap;message=Aggregate-Share-Req",
      "application/ppm-dap;message=\"aggregate-share-req \"",
      "application/ppm-dap",
      "application/ppm-dap;version=18",
      "application/octet-stream;message=aggregate-share-req",
      "application/ppm-dap-x;message=aggregate-share-req",
      "application/ppm-dap;message=\"aggregate-share-req",
      "application/ppm-dap;message",
      "application/ppm-dap;message=",
      "application/ppm-dap;message=aggregate-share-req;message=aggregate-share-req",
      "application/ppm-dap message=aggregate-share-req",
      "application/ppm-dap;message=aggregate-share-req,text/plain",
      "application ppm-dap;message=aggregate-share-req",
      "/ppm-dap;message=aggregate-share-req",
      "application/;message=aggregate-share-req",
      "",
      "application/ppm-dap;message=\"aggregate-share-req\\"
  })
  void refusesEverythingElseWith415(String contentType) {
    DapProblem p = assertThrows(DapProblem.class,
        () -> AggregateShareHandler.checkAggregateShareReqType(contentType, null));
    assertEquals(415, p.status(), p.getMessage());
  }

  @Test
  void malformedValuesSayWhere() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MediaType.parse("application/ppm-dap;message=\"x"));
    assertTrue(e.getMessage().contains("unterminated quoted-string"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> MediaType.parse("application/ppm-dap;a=1;A=2"));
    assertTrue(e.getMessage().contains("repeated"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> MediaType.parse("application/ppm-dap;message=\"\u0001\""));
    assertTrue(e.getMessage().contains("invalid character"), e.getMessage());
  }
}
