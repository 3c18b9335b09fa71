package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.DapMediaType;

/** The Content-Type check of DAP requests (DAP-18 "HTTP Usage"): parsed, not compared. */
class RequestChecksTest {
  private static final DapMediaType SHARE_REQ = DapMediaType.AGGREGATE_SHARE_REQ;
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
    assertDoesNotThrow(() -> RequestChecks.messageType(contentType, SHARE_REQ, null));
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
        () -> RequestChecks.messageType(contentType, SHARE_REQ, null));
    assertEquals(415, p.status(), p.getMessage());
  }
}
