package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.DapError;

/** Problem documents as exceptions: the DAP error type named in the message, others kept. */
class DapProblemExceptionTest {
  @Test
  void namesTheDapErrorTypeAndKeepsOtherTypes() {
    DapProblemException e = new DapProblemException("the Leader refused", 400,
        "urn:ietf:params:ppm:dap:error:batchOverlap", "overlaps");
    assertEquals(Optional.of(DapError.BATCH_OVERLAP), e.error());
    assertEquals("the Leader refused: batchOverlap (HTTP 400): overlaps", e.getMessage());
    DapProblemException plain = new DapProblemException("the Leader refused", 401, null, null);
    assertEquals("the Leader refused: (HTTP 401)", plain.getMessage());
    assertEquals("about:blank", plain.type());
    assertEquals(Optional.empty(), plain.error());
    DapProblemException other = new DapProblemException("x", 500,
        "urn:ietf:params:ppm:dap:error:noSuchThing", "d");
    assertEquals(Optional.empty(), other.error());
    assertTrue(other.getMessage().contains("noSuchThing"), other.getMessage());
  }
}
