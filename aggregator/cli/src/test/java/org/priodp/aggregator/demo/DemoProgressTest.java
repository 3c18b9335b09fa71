package org.priodp.aggregator.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class DemoProgressTest {
  @Test
  void drawsABarOnOneLineAndEndsItFull() {
    StringWriter s = new StringWriter();
    DemoProgress p = new DemoProgress(new PrintWriter(s), "uploading", 200);
    p.update(100);
    assertTrue(s.toString().startsWith("\r  uploading    [###############---------------] 100/200"),
        s.toString());
    p.finish();
    String[] lines = s.toString().split("\n");
    assertEquals(1, lines.length, s.toString());
    String last = lines[0].substring(lines[0].lastIndexOf('\r') + 1);
    assertTrue(last.startsWith("  uploading    [##############################] 200/200"), last);
  }

  @Test
  void anAbandonedBarEndsItsLineOnlyIfDrawn() {
    StringWriter s = new StringWriter();
    new DemoProgress(new PrintWriter(s), "collecting", 1).abandon();
    assertEquals("", s.toString());
  }
}
