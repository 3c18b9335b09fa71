package org.priodp.conformance.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Leader-side load generator with tiny numbers: every report of every job is accepted. */
class AggregationLoadTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(AggregationLoad.Vdaf.class)
  void everyReportOfEveryJobIsAccepted(AggregationLoad.Vdaf vdaf) throws Exception {
    StringWriter progress = new StringWriter();
    AggregationLoad.Result r = AggregationLoad.run(vdaf, 25, 10, 2,
        "jdbc:sqlite:" + dir.resolve("agg.sqlite").toAbsolutePath(), new Properties(),
        new PrintWriter(progress));
    assertEquals(25, r.reports());
    assertEquals(3, r.jobs());
    assertEquals(2, r.concurrency());
    assertTrue(r.seconds() > 0 && r.bareOpenMicros() > 0 && r.ratio() > 0, r.toString());
    assertTrue(progress.toString().contains("preparing 25 reports in 3 jobs"), progress.toString());
  }

  @org.junit.jupiter.api.Test
  void aWrongCountIsReported() {
    assertEquals("0 VerifyResps for 1 reports", AggregationLoad.check(new byte[0], 1));
  }
}
