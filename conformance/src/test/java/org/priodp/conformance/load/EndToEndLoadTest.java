package org.priodp.conformance.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end load generator with tiny numbers: a Leader and a Helper on loopback, every
 * upload accepted, both aggregators count every report, the collected aggregate is exact (the
 * run throws otherwise).
 */
class EndToEndLoadTest {
  @Test
  void everyUploadIsAggregatedAndCollectedExactly() throws Exception {
    AggregationLoad.Vdaf vdaf = AggregationLoad.Vdaf.HISTOGRAM10;
    StringWriter progress = new StringWriter();
    EndToEndLoad.Result r = EndToEndLoad.run(vdaf, 45, 2, 10, 20, null, null,
        new Properties(), new PrintWriter(progress));
    assertEquals(45, r.reports());
    assertEquals(2, r.uploaders());
    assertEquals(10, r.perRequest());
    assertTrue(r.uploadSeconds() > 0 && r.aggregateSeconds() > 0 && r.collectSeconds() > 0,
        r.toString());
    assertTrue(progress.toString().contains("prepared 45 reports in 5 requests"),
        progress.toString());
  }

  @Test
  void theTaskNewOptionsNameTheVdafsParameters() {
    assertEquals(List.of("--vdaf", "Prio3Histogram", "--length", "10", "--chunk-length", "4"),
        EndToEndLoad.taskNewOptions(AggregationLoad.Vdaf.HISTOGRAM10));
    assertEquals(List.of("--vdaf", "Prio3SumVec", "--length", "100", "--max-measurement", "255",
        "--chunk-length", "10"), EndToEndLoad.taskNewOptions(AggregationLoad.Vdaf.SUMVEC100));
  }
}
