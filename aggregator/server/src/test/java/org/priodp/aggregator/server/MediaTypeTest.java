package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

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
