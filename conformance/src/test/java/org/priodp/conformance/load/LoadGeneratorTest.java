package org.priodp.conformance.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadGeneratorTest {

  @Test
  void smallRunChecksEveryAnswerAndReportsBothPhases(@TempDir Path dir) throws Exception {
    StringWriter progress = new StringWriter();
    List<LoadGenerator.Phase> phases = LoadGenerator.run(6, 60, 4, dir, new PrintWriter(progress));
    assertEquals(2, phases.size());
    assertEquals("new shares", phases.get(0).phase());
    assertEquals(5, phases.get(0).requests(), "the first new share is released by the warm-up");
    assertEquals("repeats", phases.get(1).phase());
    assertEquals(60, phases.get(1).requests());
    for (LoadGenerator.Phase p : phases) {
      assertTrue(p.perSecond() > 0, p.phase());
      assertTrue(p.quantileMs(0.5) <= p.quantileMs(0.99) && p.quantileMs(0.99) <= p.quantileMs(1.0));
    }
    assertTrue(progress.toString().startsWith("load: service on 127.0.0.1:"), progress.toString());
  }

  @Test
  void refusesUnboundedOrEmptyRuns(@TempDir Path dir) {
    PrintWriter sink = new PrintWriter(new StringWriter());
    assertThrows(IllegalArgumentException.class, () -> LoadGenerator.run(1, 10, 4, dir, sink));
    assertThrows(IllegalArgumentException.class, () -> LoadGenerator.run(5, 10, 1000, dir, sink));
  }

  private static long releasedRows(String url) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.Statement st = c.createStatement()) {
      try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM released_aggregate_shares")) {
        rs.next();
        return rs.getLong(1);
      } catch (java.sql.SQLException e) {
        return 0; // the table does not exist yet: the first run creates it
      }
    }
  }

  /** The same run over PostgreSQL when PRIODP_PG_URL is set (skipped otherwise). */
  @Test
  void smallRunOverPostgresql() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED LoadGeneratorTest.smallRunOverPostgresql: PRIODP_PG_URL is not set");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(url != null && !url.isBlank());
    StringWriter progress = new StringWriter();
    long before = releasedRows(url);
    List<LoadGenerator.Phase> phases = LoadGenerator.run(4, 20, 4, url, new java.util.Properties(),
        new PrintWriter(progress));
    assertEquals(4, releasedRows(url) - before, "the four new shares were released in PostgreSQL");
    assertEquals(3, phases.get(0).requests());
    assertEquals(20, phases.get(1).requests());
    assertTrue(progress.toString().contains("store jdbc:postgresql:"), progress.toString());
  }
}
